"""An engine with a line protocol of its own, as older Lost Cities bots have:
the example that ``adapter.py`` wraps (see docs/engines.md).

Its lines, one command each, cards written in lower case with ``0`` for a
handshake (``r0``, ``g7``, ``w10``):

    -> HAND c1 ... c8                the cards dealt
    -> THEY PLAY|DISCARD card FROM   the opponent's turn (FROM: deck, or a colour)
    -> YOURTURN
    <- PLAY card | DISCARD card      then
    <- DRAW deck
    -> GOT card                      the card drawn
    -> OVER mine theirs
    -> BYE

It starts by writing ``HELLO Legacy``.  It plays the lowest card that fits
one of its expeditions (starting one when its cards of the colour add up to 25
or more), else discards its lowest card, and always draws from the deck.
"""

import sys


def rank(card):
    return int(card[1:])


def main():
    print("HELLO Legacy", flush=True)
    hand, tops = [], {}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "HAND":
            hand, tops = words[1:], {}
        elif words[0] == "YOURTURN":
            worth = {}
            for c in hand:
                worth[c[0]] = worth.get(c[0], 0) + rank(c)
            fits = [c for c in hand if c[0] in tops and rank(c) > tops[c[0]]
                    or c[0] not in tops and worth[c[0]] >= 25]
            if fits:
                card = min(fits, key=rank)
                tops[card[0]] = rank(card)
                print("PLAY", card)
            else:
                card = min(hand, key=rank)
                print("DISCARD", card)
            hand.remove(card)
            print("DRAW deck", flush=True)
        elif words[0] == "GOT":
            hand.append(words[1])
        elif words[0] == "BYE":
            return


if __name__ == "__main__":
    main()
