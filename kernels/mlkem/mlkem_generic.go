package mlkem

// zetas[i] = 17^BitRev7(i) mod q (FIPS 203, Appendix A).
var zetas = [128]int32{
	1, 1729, 2580, 3289, 2642, 630, 1897, 848, 1062, 1919, 193, 797,
	2786, 3260, 569, 1746, 296, 2447, 1339, 1476, 3046, 56, 2240, 1333,
	1426, 2094, 535, 2882, 2393, 2879, 1974, 821, 289, 331, 3253, 1756,
	1197, 2304, 2277, 2055, 650, 1977, 2513, 632, 2865, 33, 1320, 1915,
	2319, 1435, 807, 452, 1438, 2868, 1534, 2402, 2647, 2617, 1481, 648,
	2474, 3110, 1227, 910, 17, 2761, 583, 2649, 1637, 723, 2288, 1100,
	1409, 2662, 3281, 233, 756, 2156, 3015, 3050, 1703, 1651, 2789, 1789,
	1847, 952, 1461, 2687, 939, 2308, 2437, 2388, 733, 2337, 268, 641,
	1584, 2298, 2037, 3220, 375, 2549, 2090, 1645, 1063, 319, 2773, 757,
	2099, 561, 2466, 2594, 2804, 1092, 403, 1026, 1143, 2150, 2775, 886,
	1722, 1212, 1874, 1029, 2110, 2935, 885, 2154,
}

// gammas[i] = 17^(2·BitRev7(i)+1) mod q (FIPS 203, Appendix A), from
// zetas: for j < 64, 2·BitRev7(2j)+1 = BitRev7(64+j), and BitRev7(2j+1) =
// BitRev7(2j) + 64 with 17^128 = −1, so gammas[2j] = zetas[64+j] and
// gammas[2j+1] = q − zetas[64+j].
var gammas = func() (g [128]int32) {
	for j, z := range zetas[64:] {
		g[2*j], g[2*j+1] = z, Q-z
	}
	return g
}()

// invN is 128⁻¹ mod q, the final scaling of InvNTT.
const invN = 3303

// nttGeneric is FIPS 203 Algorithm 9 on canonical coefficients.
func nttGeneric(f *[256]int16) {
	i := 1
	for n := 128; n >= 2; n /= 2 {
		for start := 0; start < 256; start += 2 * n {
			zeta := zetas[i]
			i++
			for j := start; j < start+n; j++ {
				t := zeta * int32(f[j+n]) % Q
				f[j+n] = int16((int32(f[j]) - t + Q) % Q)
				f[j] = int16((int32(f[j]) + t) % Q)
			}
		}
	}
}

// invNTTGeneric is FIPS 203 Algorithm 10 on canonical coefficients.
func invNTTGeneric(f *[256]int16) {
	i := 127
	for n := 2; n <= 128; n *= 2 {
		for start := 0; start < 256; start += 2 * n {
			zeta := zetas[i]
			i--
			for j := start; j < start+n; j++ {
				t := int32(f[j])
				f[j] = int16((t + int32(f[j+n])) % Q)
				f[j+n] = int16(zeta * (int32(f[j+n]) - t + Q) % Q)
			}
		}
	}
	for j := range f {
		f[j] = int16(int32(f[j]) * invN % Q)
	}
}

// mulNTTGeneric is FIPS 203 Algorithm 11 (with BaseCaseMultiply,
// Algorithm 12) on canonical coefficients.
func mulNTTGeneric(h, f, g *[256]int16) {
	for i := 0; i < 128; i++ {
		a0, a1 := int32(f[2*i]), int32(f[2*i+1])
		b0, b1 := int32(g[2*i]), int32(g[2*i+1])
		h[2*i] = int16((a0*b0 + a1*b1%Q*gammas[i]) % Q)
		h[2*i+1] = int16((a0*b1 + a1*b0) % Q)
	}
}
