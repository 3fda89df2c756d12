package mldsa

import (
	"bytes"
	"testing"
)

// TestRejectionReasons runs the signing loop attempt by attempt, as
// signInternal does, counting why attempts are rejected, and checks that
// the accepted attempt gives signInternal's signature. The common
// rejections (low bits, z) must occur; the rare ones are logged.
func TestRejectionReasons(t *testing.T) {
	var reasons [5]int
	for _, set := range testSets {
		r := newTestRand("reasons " + set.name)
		for range counts(40, 3) {
			sk := new(privateKey)
			pk := new(publicKey)
			if err := newKey(set.p, r.bytes(SeedSize), sk, pk); err != nil {
				t.Fatal(err)
			}
			mu, rnd := (*[muSize]byte)(r.bytes(muSize)), (*[rndSize]byte)(r.bytes(rndSize))
			want, err := signInternal(sk, pk, mu, rnd, make([]byte, sk.p.sigSize))
			if err != nil {
				t.Fatal(err)
			}
			var rhoPP [64]byte
			h := newSHAKE256()
			h.Write(sk.key[:])
			h.Write(rnd[:])
			h.Write(mu[:])
			h.Read(rhoPP[:])
			var s signer
			kappa := 0
			for ; ; kappa += set.p.l {
				why := s.attempt(sk, pk, mu, &rhoPP, kappa)
				reasons[why]++
				if why == accepted {
					break
				}
			}
			if got := s.encode(set.p, make([]byte, set.p.sigSize)); !bytes.Equal(got, want) {
				t.Fatalf("%s: the accepted attempt (κ = %d) differs from signInternal's signature", set.name, kappa)
			}
		}
	}
	t.Logf("attempts: %d accepted, rejected for z %d, low bits %d, ct0 %d, hints %d", reasons[accepted], reasons[rejectZ], reasons[rejectR0], reasons[rejectT0], reasons[rejectH])
	if !testing.Short() && (reasons[rejectZ] == 0 || reasons[rejectR0] == 0) {
		t.Errorf("no rejection for z or for the low bits in %d signatures", reasons[accepted])
	}
}

// craftedSigner returns a private key of set p and a signer whose r rows
// sit exactly at γ2 above a multiple of 2γ2 (LowBits(r) = γ2), so that a
// positive ct0 coefficient moves HighBits: c = scale (a constant
// polynomial) makes ct0 = scale·t0.
func craftedSigner(t *testing.T, p *params, scale int32) (*privateKey, *signer) {
	t.Helper()
	sk, pk := new(privateKey), new(publicKey)
	if err := newKey(p, make([]byte, SeedSize), sk, pk); err != nil {
		t.Fatal(err)
	}
	s := new(signer)
	s.cHat[0] = scale
	ntt(&s.cHat)
	for i := range p.k {
		for c := range n {
			s.w[i][c] = int32(c)%p.rounding.m*p.rounding.twoG2 + p.gamma2
			hi, _ := specDecompose(s.w[i][c], p.gamma2)
			s.r1[i][c] = uint8(hi)
		}
	}
	return sk, s
}

// TestHintsRejection drives the last checks of an attempt on crafted
// state: with c = 1 about half the coefficients get a hint, more than ω,
// and the hints must be MakeHint's (FIPS 204 Algorithm 39); with c large
// enough ||ct0|| reaches γ2.
func TestHintsRejection(t *testing.T) {
	for _, p := range []*params{&params44, &params65, &params87} {
		sk, s := craftedSigner(t, p, 1)
		if why := s.hints(sk); why != rejectH {
			t.Fatalf("%s: hints with c = 1: outcome %d, want too many hints (%d)", p.name, why, rejectH)
		}
		for i := range p.k {
			t0 := sk.t0[i]
			invNTT(&t0)
			for c := range n {
				v := canon((s.w[i][c] + t0[c]) % Q)
				hiV, _ := specDecompose(v, p.gamma2)
				hiR, _ := specDecompose(s.w[i][c], p.gamma2)
				if want := hiV != hiR; (s.h[i][c] == 1) != want {
					t.Fatalf("%s: hint [%d][%d] = %d, want %v (r = %d, ct0 = %d)", p.name, i, c, s.h[i][c], want, s.w[i][c], centered(t0[c]))
				}
			}
		}
		sk, s = craftedSigner(t, p, 2*p.gamma2/(1<<(d-1))+1)
		if why := s.hints(sk); why != rejectT0 {
			t.Fatalf("%s: hints with a large c: outcome %d, want ||ct0|| too large (%d)", p.name, why, rejectT0)
		}
	}
}
