// Package aesecb implements AES (FIPS 197) in ECB mode as a crypto/cipher
// BlockMode whose bulk path is a generated multi-block kernel: AES-NI with
// 1..8 blocks in flight or VAES on ymm/zmm registers, selected per CPU and
// message size by kernels/dispatch.
//
// ECB encrypts equal blocks to equal ciphertexts; use it only where a
// protocol requires it (as a building block, for key wrapping tests, or to
// measure raw AES throughput).
//
// The package registers six dispatch kernels with kernels/variant:
// "aes128.enc", "aes128.dec", "aes192.enc", "aes192.dec", "aes256.enc" and
// "aes256.dec". Each variant crypts len(src)/16 blocks of src into dst with
// an expanded schedule of (Nr+1) 16-byte round keys in FIPS 197 byte order;
// decryption variants use the equivalent inverse cipher's schedule
// (FIPS 197 §5.3.5), as AESDEC expects.
//
// Package init registers, besides the generic code, only the generated
// variants the compiled dispatch table (kernels/dispatch/ztable.go) can
// select, and dispatches among those, so a production binary links only
// them; the lab calls RegisterVariants to register every generated variant.
package aesecb
