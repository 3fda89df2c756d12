# .ci/bochs/tiercheck.sh [ARG...]: the tiercheck job of a Bochs tier of
# .ci/matrix, run by the guest's busybox sh after the verify job, next to
# the tiercheck binary, which gets the ARGs (e.g. -maxsize 16384).
#
# Prints tiercheck's stdout as "out: " lines and its stderr as "err: "
# lines. When the verify job failed on this tier (its status is in
# /tmp/rc.verify, see .ci/bochs/init), only the kernel functions run
# (tiercheck -kernels: the exported functions, not the operations): a
# wrong kernel can keep a whole operation looping (ML-DSA's rejection
# sampling) for hours under Bochs. After a crash or with operations left
# out, prints one "byfunc: " line per function: its line from the run, or
# from running it alone (a crash then costs only its own line), or a note
# that it was left out. Exits with tiercheck's status, 1 when operations
# were left out.
only=""
if [ -f /tmp/rc.verify ] && [ "$(cat /tmp/rc.verify)" != 0 ]; then
	only=-kernels
	./tiercheck -list -kernels >/tmp/tiercheck.kernels
	echo "err: FAIL verify failed on this tier: whole operations left out (a wrong kernel can keep one looping for hours under Bochs)"
fi
if [ -n "$only" ]; then
	./tiercheck -v "$@" -kernels >/tmp/tiercheck.out 2>/tmp/tiercheck.err
else
	./tiercheck -v "$@" >/tmp/tiercheck.out 2>/tmp/tiercheck.err
fi
rc=$?
[ -n "$only" ] && rc=1
sed 's/^/out: /' /tmp/tiercheck.out
sed 's/^/err: /' /tmp/tiercheck.err
if [ -n "$only" ] || { [ "$rc" != 0 ] && ! grep -q '^all ' /tmp/tiercheck.out; }; then
	for f in $(./tiercheck -list); do
		line=$(awk -v f="$f" '$1 == f' /tmp/tiercheck.out)
		if [ -z "$line" ] && [ -n "$only" ] && ! grep -Fxq "$f" /tmp/tiercheck.kernels; then
			line="$f (not run: verify failed on this tier)"
		elif [ -z "$line" ]; then
			re=$(printf '%s' "$f" | sed 's/[.+]/\\&/g')
			line=$(./tiercheck "$@" -func "^$re\$" 2>/tmp/func.err | sed -n 2p)
			[ -n "$line" ] || line="$f CRASH: $(grep -Em1 '^(SIGILL|SIGSEGV|SIGBUS|panic:|fatal error:|FAIL)' /tmp/func.err)"
		fi
		echo "byfunc: $line"
	done
fi
exit "$rc"
