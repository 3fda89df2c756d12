package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// maxSize bounds --size: 64 MiB, 64 times the largest default size. Larger
// inputs do not fit the buffers that verify (several per size, in every
// parallel worker) and sweep allocate on ordinary hosts.
const maxSize = 64 << 20

// sizeHelp documents the form of a --size value in flag help.
var sizeHelp = fmt.Sprintf("plain decimal bytes, at most %d (64 MiB)", maxSize)

// parseSize parses one --size value: a plain decimal byte count in
// 0..maxSize, without sign, base prefix, leading zero, exponent or suffix.
// The error gives the reason only; callers name the flag and value.
func parseSize(s string) (int, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, errors.New("want a plain decimal byte count")
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, errors.New("want a plain decimal byte count without leading zeros (not octal)")
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > maxSize {
		return 0, fmt.Errorf("above the maximum %d (64 MiB)", maxSize)
	}
	return int(n), nil
}

// parseSizes parses a comma-separated --size list.
func parseSizes(list string) ([]int, error) {
	var out []int
	for _, s := range cpu.SplitList(list) {
		n, err := parseSize(s)
		if err != nil {
			return nil, usagef("--size %q: %v", s, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// A sizeValue is a single --size flag parsed with parseSize. It keeps its
// default (e.g. -1 for "the kernel's default") until the flag is given.
type sizeValue struct{ n *int }

func (v sizeValue) String() string {
	if v.n == nil {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v.n = n
	return nil
}

// checkSize reports, as a usage error, a size that kernel k cannot run
// exactly (e.g. AES ECB input that is not whole blocks). Fixed-size
// kernels ignore sizes.
func checkSize(k *variant.Kernel, size int) error {
	if len(k.Sizes) == 0 {
		return nil
	}
	if err := k.ValidSize(size); err != nil {
		return usagef("--size %d: kernel %s: %v", size, k.Name, err)
	}
	return nil
}

// checkSizes applies checkSize to every kernel and size.
func checkSizes(ks []*variant.Kernel, sizes []int) error {
	for _, k := range ks {
		for _, n := range sizes {
			if err := checkSize(k, n); err != nil {
				return err
			}
		}
	}
	return nil
}
