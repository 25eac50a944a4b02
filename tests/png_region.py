#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Counts the distinct pixel values inside a rectangle of a PNG (8-bit RGB or RGBA, not interlaced, as Chromium's
screenshots are), decoding it with the standard library only (zlib). Used by tests/test_rep_html.c.

Usage: png_region.py FILE X Y W H        -> prints the number of distinct pixels in [X, X+W) x [Y, Y+H)
       png_region.py FILE X Y W H dark   -> prints the share of its pixels that are dark (each channel below 80), the
                                            colour of the timeline's message lines and labels, not of a state
       png_region.py FILE X Y W H red    -> prints the red channel of its most frequent pixel (a state's colour)"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG: " + path)
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            pred = [0, a, prev[i], (a + prev[i]) // 2, paeth(a, prev[i], c)][kind]
            line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    return rows, bpp


def main():
    rows, bpp = decode(sys.argv[1])
    x, y, w, h = (int(v) for v in sys.argv[2:6])
    counts, dark = {}, 0
    for row in rows[y:y + h]:
        for i in range(x, x + w):
            pixel = bytes(row[i * bpp:(i + 1) * bpp])
            counts[pixel] = counts.get(pixel, 0) + 1
            dark += max(pixel[:3]) < 80
    mode = sys.argv[6] if sys.argv[6:] else ""
    if mode == "dark":
        print("%.4f" % (dark / (w * h)))
    elif mode == "red":
        print(max(counts, key=counts.get)[0])
    else:
        print(len(counts))


main()
