"""The picture of ``lcn stats``: the score distribution and the per-colour figures.

:func:`stats_svg` draws a summary (:meth:`StatsAccumulator.summary`) as one
SVG: on the left a histogram of the round scores (bins of 10 points, the
median and the mean marked), on the right, for each colour, how often it
was opened, its mean expedition score and how often it reached the 8-card
bonus.  The colours are those of the board pictures (:data:`lcnotation.svg.PALETTE`).
"""

from __future__ import annotations

import html
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ..svg import THEME, ink, letter_fills

__all__ = ["stats_svg"]

_WIDTH, _HEIGHT = 960, 420
_GRID = "#D8CFBD"  # the chart's own: the lines of its grid
_TEXT, _BAR, _MARK = THEME["text"], THEME["back"], THEME["highlight"]
_BACKGROUND = THEME["background"]
_FONT = "font-family='DejaVu Sans, Verdana, sans-serif'"


def _bins(histogram: Sequence[Sequence[int]], size: int = 10) -> List[Tuple[int, int]]:
    """(bin start, count) for every bin from the lowest value's to the highest's."""
    if not histogram:
        return []
    counts: Dict[int, int] = {}
    for value, n in histogram:
        start = (value // size) * size
        counts[start] = counts.get(start, 0) + n
    low, high = min(counts), max(counts)
    return [(b, counts.get(b, 0)) for b in range(low, high + size, size)]


def _text(x: float, y: float, text: str, size: int = 12, anchor: str = "middle",
          fill: str = _TEXT, weight: str = "normal") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' text-anchor='{anchor}' "
            f"font-weight='{weight}' fill='{fill}' {_FONT}>{html.escape(text)}</text>")


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = max(span / ticks, 1e-9)
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    for step in (1, 2, 5, 10):
        if step * power >= raw:
            return step * power
    return 10 * power


def _histogram(summary: Mapping[str, object], x0: float, y0: float, w: float, h: float
               ) -> List[str]:
    scores = summary["scores"]
    assert isinstance(scores, dict)
    bins = _bins(scores["histogram"])
    out = [_text(x0 + w / 2, y0 - 14, f"Round scores ({scores['count']:,}: each "
                 "player of each result)", 14, weight="bold")]
    if not bins:
        out.append(_text(x0 + w / 2, y0 + h / 2, "no results"))
        return out
    top = max(n for _, n in bins)
    step = _nice_step(top)
    ymax = step * -(-top // step)
    bw = w / len(bins)
    for k in range(int(ymax // step) + 1):
        y = y0 + h - h * (k * step) / ymax
        out.append(f"<line x1='{x0:.1f}' y1='{y:.1f}' x2='{x0 + w:.1f}' y2='{y:.1f}' "
                   f"stroke='{_GRID}' stroke-width='1'/>")
        out.append(_text(x0 - 6, y + 4, f"{int(k * step):,}", 10, "end"))
    for i, (start, n) in enumerate(bins):
        bh = h * n / ymax
        out.append(f"<rect x='{x0 + i * bw + 0.5:.1f}' y='{y0 + h - bh:.1f}' "
                   f"width='{max(bw - 1, 0.5):.1f}' height='{bh:.1f}' fill='{_BAR}'>"
                   f"<title>{start} to {start + 9}: {n:,}</title></rect>")
    label_every = max(1, len(bins) // 10)
    for i, (start, _) in enumerate(bins):
        if i % label_every == 0:
            out.append(_text(x0 + i * bw, y0 + h + 14, str(start), 10))
    low = bins[0][0]
    span = bins[-1][0] + 10 - low

    def at(value: float) -> float:
        return x0 + w * (value - low) / span

    percentiles = scores["percentiles"]
    assert isinstance(percentiles, dict)
    for value, label, dash in ((percentiles["50"], "median", "4 3"),
                               (scores["mean"], "mean", "")):
        if value is None:
            continue
        x = at(float(value))
        out.append(f"<line x1='{x:.1f}' y1='{y0:.1f}' x2='{x:.1f}' y2='{y0 + h:.1f}' "
                   f"stroke='{_MARK}' stroke-width='2' stroke-dasharray='{dash}'/>")
    legend = []
    for value, label in ((percentiles["50"], "median (dashed)"), (scores["mean"], "mean")):
        if value is not None:
            legend.append(f"{label} {float(value):.1f}")
    out.append(_text(x0 + 6, y0 + 12, ", ".join(legend), 11, "start", _MARK))
    out.append(_text(x0 + w / 2, y0 + h + 32, "points", 11))
    return out


def _ink(fill: str) -> str:

    return ink(fill)


def _colors(summary: Mapping[str, object], fills: Mapping[str, str], x0: float, y0: float,
            w: float, h: float) -> List[str]:
    colors = summary["colors"]
    assert isinstance(colors, dict)
    out = [_text(x0 + w / 2, y0 - 14, "Per colour", 14, weight="bold")]
    if not colors:
        out.append(_text(x0 + w / 2, y0 + h / 2, "no results"))
        return out
    rows = list(colors.items())
    row_h = min(40.0, (h - 20) / len(rows))
    swatch, bar_x, bar_w = x0, x0 + 30, 130.0
    mean_x0, mean_w = x0 + 216, w - 216
    zero = mean_x0 + mean_w / 2
    reach = mean_w / 2 - 34          # the longest mean bar, its label beside it
    out.append(_text(bar_x + bar_w / 2, y0 + 4, "opened (bar below: 8+ cards)", 11))
    out.append(_text(zero, y0 + 4, "mean expedition score", 11))
    means = [abs(float(c["mean_score"])) for _, c in rows if c["mean_score"] is not None]
    scale = max(means + [1.0])
    for i, (letter, c) in enumerate(rows):
        y = y0 + 14 + i * row_h
        bh = row_h - 12
        fill = fills.get(letter, _BAR)
        out.append(f"<rect x='{swatch:.1f}' y='{y + 4:.1f}' width='22' height='{bh:.1f}' "
                   f"fill='{fill}' stroke='{_TEXT}' stroke-width='0.5'/>")
        out.append(_text(swatch + 11, y + 4 + bh / 2 + 4, letter, 12, fill=_ink(fill),
                         weight="bold"))
        opened = c["opened_rate"] or 0.0
        bonus = c["bonus_rate"] or 0.0
        out.append(f"<rect x='{bar_x:.1f}' y='{y + 4:.1f}' width='{bar_w:.1f}' "
                   f"height='{bh - 6:.1f}' fill='none' stroke='{_GRID}'/>")
        out.append(f"<rect x='{bar_x:.1f}' y='{y + 4:.1f}' width='{bar_w * opened:.1f}' "
                   f"height='{bh - 6:.1f}' fill='{fill}' stroke='{_TEXT}' stroke-width='0.5'>"
                   f"<title>opened {opened:.1%}</title></rect>")
        out.append(f"<rect x='{bar_x:.1f}' y='{y + bh:.1f}' width='{bar_w * bonus:.1f}' "
                   f"height='4' fill='{_TEXT}'><title>8+ cards {bonus:.1%} of the opened"
                   "</title></rect>")
        out.append(_text(bar_x + bar_w + 4, y + 4 + bh / 2 + 1, f"{opened:.0%}", 10, "start"))
        out.append(_text(bar_x + bar_w + 4, y + bh + 4, f"{bonus:.1%}", 9, "start"))
        mean = c["mean_score"]
        if mean is not None:
            length = reach * float(mean) / scale
            left = zero + min(0.0, length)
            out.append(f"<rect x='{left:.1f}' y='{y + 4:.1f}' width='{abs(length):.1f}' "
                       f"height='{bh:.1f}' fill='{fill}' stroke='{_TEXT}' stroke-width='0.5'>"
                       f"<title>{float(mean):.1f}</title></rect>")
            tx = zero + length + (4 if length >= 0 else -4)
            out.append(_text(tx, y + 4 + bh / 2 + 4, f"{float(mean):.1f}", 10,
                             "start" if length >= 0 else "end"))
    bottom = y0 + 14 + len(rows) * row_h
    out.append(f"<line x1='{zero:.1f}' y1='{y0 + 10:.1f}' x2='{zero:.1f}' y2='{bottom:.1f}' "
               f"stroke='{_TEXT}' stroke-width='1'/>")
    out.append(_text(zero, bottom + 12, "0", 10))
    return out


def stats_svg(summary: Mapping[str, object], *, title: Optional[str] = None) -> str:
    """The picture of a stats summary, as an SVG document."""

    colors = summary["colors"]
    assert isinstance(colors, dict)
    fills = letter_fills(list(colors))
    games = summary["games"]
    first = summary["first_mover"]
    assert isinstance(first, dict)
    heading = title or "Lost Cities games"
    rate = first["rate"]
    sub = f"{games:,} games, {summary['complete']:,} complete, {summary['unusable']:,} not used"
    if rate is not None:
        low, high = first["interval"]
        sub += f"; first mover wins {rate:.1%} [{low:.1%}, {high:.1%}]"
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{_WIDTH}' height='{_HEIGHT}' "
             f"viewBox='0 0 {_WIDTH} {_HEIGHT}' role='img'>",
             f"<title>{html.escape(heading)}: {html.escape(sub)}</title>",
             f"<rect width='{_WIDTH}' height='{_HEIGHT}' fill='{_BACKGROUND}'/>",
             _text(20, 28, heading, 16, "start", weight="bold"),
             _text(20, 48, sub, 12, "start")]
    parts += _histogram(summary, 70, 100, 470, 250)
    parts += _colors(summary, fills, 580, 100, 360, 290)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
