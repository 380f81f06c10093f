#!/bin/bash
# test_apt.sh - set-up that waits its turn (mk/apt-install.sh, used by
# make deps, deps-test and deps-qemu). A stand-in for apt-get (the APT_GET
# variable) plays the package manager; nothing is installed.
#
#   - the lock is held by another process: the stand-in is run with
#     -o DPkg::Lock::Timeout=N (N <= APT_LOCK_TIMEOUT), the script gives up
#     after that bounded wait with exit status 1 and says what could not be
#     installed, that another process held the lock (naming it, as apt
#     does) and how to install by hand; it does not run apt-get update;
#     optional packages: the same message, "going on without them", 0;
#   - a plain failure: apt-get update, then install again, which works: 0;
#   - not root: "installing needs root", status 1, at once;
#   - make deps-test, make deps and make deps-qemu with APT_GET=stand-in
#     and a missing file: make fails and the message names the packages.
# Run by make test.
. "$(dirname "$0")/lib.sh"
test_tmp apt
LOG=$TMP/calls

# fake NAME BEHAVIOUR: a stand-in apt-get that logs its arguments to $LOG.
# locked: every call fails as apt-get does when another process holds the
# lock; root: fails as apt-get does without root; update-first: install
# fails until update has run.
fake() {
	cat >"$TMP/$1" <<EOF
#!/bin/sh
echo "\$*" >>"$LOG"
case $2 in
locked)
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)"
	echo "N: Be aware that removing the lock file is not a solution and may break your system."
	echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?"
	exit 100 ;;
root)
	echo "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)"
	echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?"
	exit 100 ;;
update-first)
	case "\$*" in *update*) touch "$TMP/updated"; exit 0 ;; esac
	[ -f "$TMP/updated" ] && exit 0
	echo "E: Unable to locate package pkg-a"
	exit 100 ;;
esac
EOF
	chmod +x "$TMP/$1"
}
fake apt-locked locked
fake apt-root root
fake apt-update update-first

# install MODE APT PKG...: run the script, stdout+stderr in $TMP/out.
install() {
	local mode=$1 apt=$2
	shift 2
	: >"$LOG"
	APT_GET=$TMP/$apt APT_LOCK_TIMEOUT=2 \
		sh "$ROOT/mk/apt-install.sh" "$mode" "make test" "$@" \
		>"$TMP/out" 2>&1
	rc=$?
}

install required apt-locked pkg-a pkg-b
if [ $rc = 1 ] &&
   grep -q "^make test: could not install pkg-a pkg-b: another process held the package manager's lock for more than 2 s$" "$TMP/out" &&
   grep -q "held by process 4242 (apt-get)" "$TMP/out" &&
   grep -q "to install them yourself: sudo apt-get install -y pkg-a pkg-b" "$TMP/out"
then
	ok "lock held: exit 1, says what and why"
else
	bad "lock held: status $rc, output:"
	cat "$TMP/out"
fi
if grep -qE '^-o DPkg::Lock::Timeout=[0-2] install -y pkg-a pkg-b$' "$LOG" &&
   ! grep -q update "$LOG"; then
	ok "lock held: apt-get waits with DPkg::Lock::Timeout, no update"
else
	bad "lock held: the stand-in was called as: $(cat "$LOG")"
fi
install optional apt-locked pkg-c
if [ $rc = 0 ] && grep -q "could not install pkg-c" "$TMP/out" &&
   grep -q "going on without them" "$TMP/out"; then
	ok "lock held, optional packages: a note, exit 0"
else
	bad "lock held, optional: status $rc"
	cat "$TMP/out"
fi
rm -f "$TMP/updated"
install required apt-update pkg-a
if [ $rc = 0 ] && [ "$(grep -c 'install -y pkg-a' "$LOG")" = 2 ] &&
   grep -q "update" "$LOG"; then
	ok "a failed install: apt-get update, then install: exit 0"
else
	bad "install after update: status $rc, calls: $(cat "$LOG")"
	cat "$TMP/out"
fi
install required apt-root pkg-a
if [ $rc = 1 ] && grep -q "could not install pkg-a: installing needs root" \
	"$TMP/out" && [ "$(grep -c install "$LOG")" -le 2 ]; then
	ok "not root: exit 1, says so, no waiting for a lock"
else
	bad "not root: status $rc, calls: $(cat "$LOG")"
	cat "$TMP/out"
fi
install required no-such-apt-get pkg-a
if [ $rc = 1 ] && grep -q "there is no .*no-such-apt-get here" "$TMP/out"; then
	ok "no package manager: exit 1, what to install"
else
	bad "no package manager: status $rc"
	cat "$TMP/out"
fi

# make's targets, with the stand-in and a file that is missing
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ROOT" \
		APT_GET="$TMP/apt-locked" APT_LOCK_TIMEOUT=1 "$@" \
		>"$TMP/out" 2>&1
	rc=$?
}
mk deps-test TEST_HEADERS="$TMP/missing.h"
if [ $rc != 0 ] && grep -q "make test: could not install .*libcmocka-dev.*lock" \
	"$TMP/out"; then
	ok "make deps-test APT_GET=stand-in: fails, names the packages"
else
	bad "make deps-test: status $rc"
	cat "$TMP/out"
fi
mk deps REQ_HEADERS="$TMP/missing.h"
if [ $rc != 0 ] && grep -q "settle: could not install libjansson-dev" \
	"$TMP/out"; then
	ok "make deps APT_GET=stand-in: fails, names the package"
else
	bad "make deps: status $rc"
	cat "$TMP/out"
fi
mk deps PEER_HEADERS="$TMP/missing.h"
if [ $rc = 0 ] && grep -q "could not install libgmp-dev" "$TMP/out" &&
   grep -q "going on without them" "$TMP/out"; then
	ok "make deps, optional peers not installable: goes on"
else
	bad "make deps, optional peers: status $rc"
	cat "$TMP/out"
fi
mk deps-qemu QEMU=no-such-qemu
if [ $rc != 0 ] && grep -q "make test-cpus: could not install qemu-user" \
	"$TMP/out"; then
	ok "make deps-qemu APT_GET=stand-in: fails, names the package"
else
	bad "make deps-qemu: status $rc"
	cat "$TMP/out"
fi

test_end test_apt
