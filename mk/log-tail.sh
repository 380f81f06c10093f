#!/bin/sh
# Show the last lines of a failed step's log, indented, where its FAIL
# line is printed: CI keeps what a target prints, not the files it wrote.
#
#   sh mk/log-tail.sh LOG [LINES]
tail -n "${2:-30}" "$1" 2>/dev/null | sed 's/^/     | /'
