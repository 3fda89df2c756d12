package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// rcon are the round constants x^(i-1) in GF(2^8) of FIPS 197 §5.2.
var rcon = [...]uint8{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36}

// expandKey writes expandKeyAESNI<bits>: the FIPS 197 key expansion with
// AESKEYGENASSIST computing SubWord and RotWord, then the equivalent
// inverse cipher's schedule dk[0] = ek[nr], dk[r] = InvMixColumns(ek[nr-r])
// (AESIMC), dk[nr] = ek[0].
func expandKey(bits int) {
	nk := bits / 32
	nr := nk + 6
	TEXT(fmt.Sprintf("expandKeyAESNI%d", bits), NOSPLIT, "func(key *byte, enc, dec *[240]byte)")
	Doc(fmt.Sprintf("expandKeyAESNI%d expands a %d-bit key into the encryption and decryption schedules.", bits, bits))
	Load(Param("key"), RSI)
	Load(Param("enc"), RDI)
	Load(Param("dec"), RDX)
	for i := 0; i < nk; i++ {
		MOVL(Mem{Base: RSI, Disp: 4 * i}, EAX)
		MOVL(EAX, Mem{Base: RDI, Disp: 4 * i})
	}
	for i := nk; i < 4*(nr+1); i++ {
		keyWord(i, nk)
	}
	for r := 0; r <= nr; r++ {
		MOVOU(Mem{Base: RDI, Disp: 16 * (nr - r)}, X0)
		if r > 0 && r < nr {
			AESIMC(X0, X0)
		}
		MOVOU(X0, Mem{Base: RDX, Disp: 16 * r})
	}
	RET()
}

// keyWord computes w[i] = w[i-nk] ^ temp, where temp is w[i-1], replaced
// by SubWord(RotWord(w[i-1])) ^ Rcon[i/nk] when i%nk == 0 and by
// SubWord(w[i-1]) when nk > 6 and i%nk == 4.
func keyWord(i, nk int) {
	MOVL(Mem{Base: RDI, Disp: 4 * (i - 1)}, EAX)
	switch {
	case i%nk == 0:
		subWord(rcon[i/nk-1], true)
	case nk > 6 && i%nk == 4:
		subWord(0, false)
	}
	XORL(Mem{Base: RDI, Disp: 4 * (i - nk)}, EAX)
	MOVL(EAX, Mem{Base: RDI, Disp: 4 * i})
}

// subWord replaces EAX with SubWord(EAX) or, with rot, with
// RotWord(SubWord(EAX)) ^ rc: AESKEYGENASSIST takes its input word from
// dword 1 and returns SubWord in dword 0 and RotWord(SubWord) ^ rc in
// dword 1.
func subWord(rc uint8, rot bool) {
	SHLQ(U8(32), RAX)
	MOVQ(RAX, X0)
	AESKEYGENASSIST(U8(rc), X0, X1)
	MOVQ(X1, RAX)
	if rot {
		SHRQ(U8(32), RAX)
	}
}
