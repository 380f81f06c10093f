#!/bin/sh
# apt-install.sh - install Debian packages for a make target, waiting its
# turn for the package manager: every target that installs calls this.
#
#   sh mk/apt-install.sh required|optional WHAT PKG...
#
# WHAT says what needs the packages ("settle", "make test"). The packages
# are installed with `$APT_GET install -y`, after `$APT_GET update` if that
# fails. When another process holds the package manager's lock, this waits
# for it up to APT_LOCK_TIMEOUT seconds in all (apt-get's
# DPkg::Lock::Timeout, and retries for the locks that option does not
# cover, such as apt-get update's lists lock), then says what could not be
# installed and why. required: exit status 1 then; optional: a note on
# stderr and status 0 (the build goes on without them). Without root (and
# apt-get as the program), or without the program, it says what to install
# by hand, with the same statuses.
#
# Environment: APT_GET (default apt-get; the Makefile's APT_GET= variable),
# APT_LOCK_TIMEOUT (seconds, default 300).
set -u
mode=$1
what=$2
shift 2
pkgs=$*
APT_GET=${APT_GET:-apt-get}
timeout=${APT_LOCK_TIMEOUT:-300}
case $timeout in '' | *[!0-9]*) timeout=300 ;; esac

log=$(mktemp "${TMPDIR:-/tmp}/settle-apt.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT
deadline=$(($(date +%s) + timeout))

denied() {
	grep -qiE 'are you root|permission denied' "$log"
}

locked() {
	! denied && grep -qiE 'could not get lock|unable to lock|unable to acquire|is another process using it|held by process' "$log"
}

# run_apt ARGS...: run $APT_GET with the time left as its lock timeout;
# while it fails on a lock and time is left, try again.
run_apt() {
	while :; do
		left=$((deadline - $(date +%s)))
		[ $left -lt 0 ] && left=0
		"$APT_GET" -o DPkg::Lock::Timeout=$left "$@" >"$log" 2>&1 &&
			return 0
		locked && [ "$(date +%s)" -lt $deadline ] || return 1
		sleep 2
	done
}

give_up() {
	if denied; then
		why="installing needs root"
		detail=
	elif locked; then
		why="another process held the package manager's lock for more than ${timeout} s"
		detail=$(grep -iE 'lock|held by' "$log" | head -n 2)
	else
		why="$APT_GET failed"
		detail=$(grep -E '^(E|Err):' "$log" | tail -n 3)
		[ -n "$detail" ] || detail=$(tail -n 3 "$log")
	fi
	{
		echo "$what: could not install $pkgs: $why"
		[ -n "$detail" ] && echo "$detail" | sed 's/^/  /'
		echo "  to install them yourself: sudo apt-get install -y $pkgs"
	} >&2
	if [ "$mode" = optional ]; then
		echo "$what: going on without them" >&2
		exit 0
	fi
	exit 1
}

# not_now REASON: say what to install by hand; required: status 1.
not_now() {
	echo "$what needs $pkgs ($1): sudo apt-get install -y $pkgs" >&2
	[ "$mode" = optional ] && exit 0
	exit 1
}

if ! command -v "$APT_GET" >/dev/null 2>&1; then
	not_now "there is no $APT_GET here"
fi
# apt-get itself installs only as root; a program named in APT_GET (a
# stand-in, a sudo wrapper) is run whoever we are
if [ "$APT_GET" = apt-get ] && [ "$(id -u)" != 0 ]; then
	not_now "installing needs root"
fi
echo "installing $pkgs ($what)"
run_apt install -y $pkgs && exit 0
locked && give_up
run_apt update && run_apt install -y $pkgs && exit 0
give_up
