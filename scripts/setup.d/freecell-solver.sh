# Freecell Solver: fc-solve and make-microsoft-freecell-board (Debian package
# freecell-solver-bin), for the FreeCell tests (tests/test_freecell_fcsolve.py):
# they deal with it, solve with it and import its solutions.
apt_install freecell-solver-bin fc-solve
