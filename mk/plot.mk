# plot - `settle plot FILE.json -o OUT.svg|OUT.png` (src/report/plot.c)
# draws result files with gnuplot, which it runs as a separate program:
# nothing to link. tests/test_plot.sh needs it, so make test installs it as
# root with the other test packages (TEST_PKGS); deps-test checks for the
# files in TEST_HEADERS, so gnuplot is listed there.
TEST_HEADERS += /usr/bin/gnuplot
