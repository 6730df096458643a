"""Pictures as pixels: PNG of one SVG, and animations (GIF, APNG) of many.

cairosvg draws an SVG with the cairo library (``pip install
'lcnotation[png]'``); Pillow, which cairosvg needs anyway, puts the frames
of an animation together and writes GIF or APNG, storing of each frame only
the part that changed.  Whatever cannot be done here (a library missing, a
picture too large for memory) raises :class:`RasterError` with a message
that says what to do.
"""

from __future__ import annotations

import io
from typing import Any, List, Optional, Sequence

__all__ = ["RasterError", "png", "animation", "ANIMATIONS"]

#: The animation formats, by file extension, and Pillow's name of each.
ANIMATIONS = {".gif": "GIF", ".apng": "PNG"}


class RasterError(Exception):
    """A picture that cannot be drawn in pixels here; the message says why."""


def _cairosvg() -> Any:
    try:
        import cairosvg  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise RasterError("PNG output needs cairosvg: pip install 'lcnotation[png]' "
                          "(or write .svg)") from None
    except OSError as exc:  # cairosvg is there, the cairo library is not
        raise RasterError("PNG output needs the cairo library (Debian: apt-get install "
                          f"libcairo2): {exc}") from None
    return cairosvg


def png(svg: str, width: int = 0) -> bytes:
    """``svg`` drawn as PNG (``width`` in pixels; 0: the SVG's own)."""
    cairosvg = _cairosvg()
    try:
        data = cairosvg.svg2png(bytestring=svg.encode("utf-8"),
                                **({"output_width": width} if width else {}))
    except MemoryError:
        raise RasterError("cannot draw the PNG: out of memory (a smaller --size, or write "
                          ".svg)") from None
    except Exception as exc:  # cairo's and its XML parser's own errors
        raise RasterError(f"cannot draw the PNG: {exc}") from None
    if not isinstance(data, bytes):  # svg2png returns bytes when given no write_to
        raise RasterError("cannot draw the PNG: cairosvg returned no bytes")
    return data


def animation(svgs: Sequence[str], durations: Sequence[int], extension: str,
              width: int, background: Optional[str] = None) -> bytes:
    """An animation of the pictures ``svgs`` (each shown ``durations[i]``
    milliseconds, then the whole loops), ``width`` pixels wide, as the format
    of ``extension`` (see :data:`ANIMATIONS`).  Pictures of different heights
    stand on a canvas of the tallest's height, in ``background`` (by default the
    pictures' own, :data:`lcnotation.svg.THEME`)."""
    if background is None:
        from ..svg import THEME
        background = THEME["background"]
    try:
        from PIL import Image
    except ImportError:
        raise RasterError("animations need Pillow: pip install 'lcnotation[png]'") from None
    if not svgs:
        raise RasterError("an animation needs at least one picture")
    frames: List[Any] = []
    try:
        for svg in svgs:
            with Image.open(io.BytesIO(png(svg, width))) as drawn:
                frames.append(drawn.convert("RGB"))
        height = max(frame.height for frame in frames)
        canvas: List[Any] = []
        for frame in frames:
            if frame.height < height:  # a shorter picture, on a canvas of the tallest's
                full = Image.new("RGB", (frame.width, height), background)
                full.paste(frame, (0, 0))
                canvas.append(full)
            else:
                canvas.append(frame)
        out = io.BytesIO()
        options = {"save_all": True, "append_images": canvas[1:], "duration": list(durations),
                   "loop": 0}
        if extension == ".gif":
            # One palette for every frame (from the first and the last), so
            # that colours do not flicker from frame to frame.
            both = Image.new("RGB", (width, 2 * height))
            both.paste(canvas[0], (0, 0))
            both.paste(canvas[-1], (0, height))
            palette = both.quantize(colors=255)
            paletted = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in canvas]
            options["append_images"] = paletted[1:]
            paletted[0].save(out, format="GIF", optimize=False, **options)
        else:
            canvas[0].save(out, format=ANIMATIONS[extension], **options)
    except MemoryError:
        raise RasterError("cannot draw the animation: out of memory (a smaller --size)"
                          ) from None
    return out.getvalue()
