# .ci/bochs/tiercheck.sh [ARG...]: the tiercheck job of a Bochs tier of
# .ci/matrix, run by the guest's busybox sh next to the tiercheck binary,
# which gets the ARGs (e.g. -maxsize 16384). Prints
# tiercheck's stdout as "out: " lines and its stderr as "err: " lines;
# after a crash (no "all" line), runs each function alone (a crash then
# costs only its own line) and prints each line as "byfunc: ". Exits with
# tiercheck's status.
./tiercheck -v "$@" >/tmp/tiercheck.out 2>/tmp/tiercheck.err
rc=$?
sed 's/^/out: /' /tmp/tiercheck.out
sed 's/^/err: /' /tmp/tiercheck.err
if [ "$rc" != 0 ] && ! grep -q '^all ' /tmp/tiercheck.out; then
	for f in $(./tiercheck -list); do
		re=$(printf '%s' "$f" | sed 's/[.+]/\\&/g')
		line=$(./tiercheck "$@" -func "^$re\$" 2>/tmp/func.err | sed -n 2p)
		[ -n "$line" ] || line="$f CRASH: $(grep -Em1 '^(SIGILL|SIGSEGV|SIGBUS|panic:|fatal error:|FAIL)' /tmp/func.err)"
		echo "byfunc: $line"
	done
fi
exit "$rc"
