#!/bin/sh
# A Lost Cities engine in POSIX shell, to show that the engine protocol
# (spec/engine-protocol.md) needs nothing but lines: it keeps its hand, and
# each turn discards the first card of it and draws from the draw pile (always
# legal, and a sure way to lose).
#
#   lcn match "sh examples/engines/discard.sh" "lcn bot random" --games 2
set -f                       # the words of a line are never file names
hand=""
while IFS= read -r line; do
    set -- $line
    case "$1" in
        lcn-engine) printf 'name Discarder\nauthor an lcnotation example\nok 1\n' ;;
        game)       shift 3; hand="$*" ;;          # game COLORS SEAT CARD...
        go)         set -- $hand; card=$1; shift; hand="$*"
                    printf 'move %sD-D\n' "$card" ;;
        drew)       hand="$hand $2" ;;
        quit)       exit 0 ;;
    esac                     # opponent, end and anything else: nothing to do
done
