#!/usr/bin/env python3
"""Generate the demo photo album used to try out picker-tui.

Usage:  python3 scripts/make-demo-album.py [OUTDIR]

OUTDIR defaults to demo/album at the repository root (found from this
file's location, so the script works from any current directory).

Every image is painted procedurally with the Python standard library only:
smooth value noise, gradients and a little film grain, so the pictures read
as landscape photos at a glance instead of test patterns. All randomness is
seeded, so re-running the script reproduces the same pixels.

PNG files are written by scripts/photo_bytes.py (zlib, no Pillow), with
the row filters chosen here. JPEG files are produced by `cjpeg` (Debian
package libjpeg-turbo-progs) from a temporary PPM; when cjpeg is not
installed every image is written as PNG instead and a note is printed, so
the script never depends on it.
"""

import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

from photo_bytes import png_from_scanlines

JPEG_QUALITY = 82


# --------------------------------------------------------------------------
# Small numeric helpers
# --------------------------------------------------------------------------

def clamp01(t):
    return 0.0 if t < 0.0 else 1.0 if t > 1.0 else t


def smoothstep(e0, e1, t):
    t = clamp01((t - e0) / (e1 - e0))
    return t * t * (3.0 - 2.0 * t)


def mix(c1, c2, t):
    return (c1[0] + (c2[0] - c1[0]) * t,
            c1[1] + (c2[1] - c1[1]) * t,
            c1[2] + (c2[2] - c1[2]) * t)


def scale(c, k):
    return (c[0] * k, c[1] * k, c[2] * k)


def gradient(stops, t):
    """Piecewise-linear colour ramp; stops are (position, colour) pairs."""
    if t <= stops[0][0]:
        return stops[0][1]
    for (p0, c0), (p1, c1) in zip(stops, stops[1:]):
        if t <= p1:
            return mix(c0, c1, (t - p0) / (p1 - p0))
    return stops[-1][1]


def stretch(values):
    """Rescale to exactly 0..1 so thresholds behave the same for any seed."""
    lo, hi = min(values), max(values)
    k = 1.0 / (hi - lo) if hi > lo else 0.0
    return [(v - lo) * k for v in values]


# --------------------------------------------------------------------------
# Value noise.  A coarse lattice of random numbers is smoothly interpolated;
# summing a few octaves gives the soft, natural-looking variation that real
# skies, rock and water have.  Lattice lookups are precomputed per axis so a
# full-frame field costs a few list comprehensions per octave.
# --------------------------------------------------------------------------

def _fade(t):
    return t * t * (3.0 - 2.0 * t)


def _axis(n, cell):
    idx, frac = [], []
    for p in range(n):
        f = p / cell
        i = int(f)
        idx.append(i)
        frac.append(_fade(f - i))
    return idx, frac


def value_noise2(w, h, cell_x, cell_y, rng):
    gw = int(w / cell_x) + 3
    gh = int(h / cell_y) + 3
    grid = [[rng.random() for _ in range(gw)] for _ in range(gh)]
    xi, xf = _axis(w, cell_x)
    xi1 = [i + 1 for i in xi]
    out = []
    for y in range(h):
        fy = y / cell_y
        j = int(fy)
        t = _fade(fy - j)
        row = [a + (b - a) * t for a, b in zip(grid[j], grid[j + 1])]
        out.extend([row[i] + (row[k] - row[i]) * f
                    for i, k, f in zip(xi, xi1, xf)])
    return out


def fbm2(w, h, cell, rng, octaves=4, aspect=1.0, gain=0.5):
    """Fractal noise over a w x h frame, roughly 0..1 with mean 0.5.

    aspect > 1 stretches features horizontally (clouds, ripples),
    aspect < 1 vertically (gullies on a mountain face)."""
    total = None
    amp, norm = 1.0, 0.0
    for _ in range(octaves):
        n = value_noise2(w, h, max(cell * aspect, 1.2), max(cell, 1.2), rng)
        if total is None:
            total = n
        else:
            total = [t + amp * v for t, v in zip(total, n)]
        norm += amp
        amp *= gain
        cell *= 0.5
    inv = 1.0 / norm
    return [t * inv for t in total]


def fbm1(n, cell, rng, octaves=5, gain=0.5, ridged=0):
    """1-D fractal noise, used for skylines.  The first 'ridged' octaves are
    folded around their midpoint, which turns soft hills into sharp alpine
    peaks; finer octaves stay smooth so the crest isn't a saw blade."""
    total = [0.0] * n
    amp = 1.0
    for o in range(octaves):
        c = max(cell, 1.2)
        g = [rng.random() for _ in range(int(n / c) + 3)]
        xi, xf = _axis(n, c)
        vals = [g[i] + (g[i + 1] - g[i]) * f for i, f in zip(xi, xf)]
        if o < ridged:
            vals = [1.0 - abs(2.0 * v - 1.0) for v in vals]
        total = [t + amp * v for t, v in zip(total, vals)]
        amp *= gain
        cell *= 0.5
    return stretch(total)


class Tex:
    """Square tileable fractal noise, sampled at arbitrary (u, v).

    Used for ground and water seen in perspective: the sample coordinates
    shrink toward the horizon, so the lattice must wrap instead of ending."""

    def __init__(self, size, cell, rng, octaves=4, aspect=1.0, gain=0.5):
        self.n = size
        data = [0.0] * (size * size)
        amp, norm = 1.0, 0.0
        for _ in range(octaves):
            gw = max(1, round(size / max(cell * aspect, 1.0)))
            gh = max(1, round(size / max(cell, 1.0)))
            grid = [[rng.random() for _ in range(gw)] for _ in range(gh)]
            xs = [x * gw / size for x in range(size)]
            xi = [int(f) for f in xs]
            xi1 = [(i + 1) % gw for i in xi]
            xf = [_fade(f - i) for f, i in zip(xs, xi)]
            for y in range(size):
                f = y * gh / size
                j = int(f)
                t = _fade(f - j)
                r0, r1 = grid[j % gh], grid[(j + 1) % gh]
                row = [a + (b - a) * t for a, b in zip(r0, r1)]
                base = y * size
                vals = [row[i] + (row[k] - row[i]) * fx
                        for i, k, fx in zip(xi, xi1, xf)]
                for x, v in enumerate(vals):
                    data[base + x] += amp * v
            norm += amp
            amp *= gain
            cell *= 0.5
        self.d = [v / norm for v in data]

    @classmethod
    def from_data(cls, n, data):
        t = cls.__new__(cls)
        t.n = n
        t.d = data
        return t

    def at(self, u, v):
        n = self.n
        u %= n
        v %= n
        i = int(u)
        j = int(v)
        fu = u - i
        fv = v - j
        i1 = i + 1 if i + 1 < n else 0
        j1 = j + 1 if j + 1 < n else 0
        d = self.d
        r0 = j * n
        r1 = j1 * n
        a = d[r0 + i]
        top = a + (d[r0 + i1] - a) * fu
        c = d[r1 + i]
        bot = c + (d[r1 + i1] - c) * fu
        return top + (bot - top) * fv


# --------------------------------------------------------------------------
# Canvas: three float planes, painted back to front like a landscape painter.
# --------------------------------------------------------------------------

class Canvas:
    def __init__(self, w, h, color=(0, 0, 0)):
        self.w, self.h = w, h
        n = w * h
        self.r = [float(color[0])] * n
        self.g = [float(color[1])] * n
        self.b = [float(color[2])] * n

    def get(self, i):
        return (self.r[i], self.g[i], self.b[i])

    def put(self, i, c, a=1.0):
        if a >= 1.0:
            self.r[i], self.g[i], self.b[i] = c
        elif a > 0.0:
            r, g, b = self.r, self.g, self.b
            r[i] += (c[0] - r[i]) * a
            g[i] += (c[1] - g[i]) * a
            b[i] += (c[2] - b[i]) * a

    def fill_row(self, y, c, x0=0, x1=None):
        w = self.w
        x1 = w if x1 is None else x1
        s, e = y * w + x0, y * w + x1
        n = e - s
        self.r[s:e] = [c[0]] * n
        self.g[s:e] = [c[1]] * n
        self.b[s:e] = [c[2]] * n

    def glow(self, cx, cy, radius, col, strength, y0=0, y1=None, core=0.0):
        """Screen-blend a soft light (sun halo, moon glow, light leak)."""
        w = self.w
        y1 = self.h if y1 is None else y1
        r, g, b = self.r, self.g, self.b
        cr, cg, cb = col[0] / 255.0, col[1] / 255.0, col[2] / 255.0
        inv = 1.0 / radius
        for y in range(max(0, y0), y1):
            dy2 = (y - cy) ** 2
            base = y * w
            for x in range(w):
                d = math.sqrt((x - cx) ** 2 + dy2) * inv
                # A wide 1/(1+d^2) tail plus a tighter core looks like lens
                # scatter around a bright source.
                f = strength / (1.0 + d * d * 4.0) + core * math.exp(-d * d * 30.0)
                if f < 0.004:
                    continue
                if f > 1.0:
                    f = 1.0
                i = base + x
                r[i] += (255.0 - r[i]) * cr * f
                g[i] += (255.0 - g[i]) * cg * f
                b[i] += (255.0 - b[i]) * cb * f

    def disk(self, cx, cy, rad, col, alpha=1.0):
        w, h = self.w, self.h
        for y in range(max(0, int(cy - rad - 1)), min(h, int(cy + rad + 2))):
            for x in range(max(0, int(cx - rad - 1)), min(w, int(cx + rad + 2))):
                d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
                cov = clamp01(rad + 0.5 - d)
                if cov > 0.0:
                    self.put(y * w + x, col, cov * alpha)

    def splat(self, fx, fy, col, a):
        """Bilinearly splat a sub-pixel point, so tiny stars look round."""
        w, h = self.w, self.h
        x0, y0 = int(fx), int(fy)
        tx, ty = fx - x0, fy - y0
        for dx, dy, k in ((0, 0, (1 - tx) * (1 - ty)), (1, 0, tx * (1 - ty)),
                          (0, 1, (1 - tx) * ty), (1, 1, tx * ty)):
            x, y = x0 + dx, y0 + dy
            if 0 <= x < w and 0 <= y < h:
                i = y * w + x
                f = clamp01(a * k)
                self.r[i] += (col[0] - self.r[i]) * f
                self.g[i] += (col[1] - self.g[i]) * f
                self.b[i] += (col[2] - self.b[i]) * f

    def to_bytes(self, rng, grain=3.0, vignette=0.22):
        """Quantise to 8-bit RGB, adding a touch of lens vignetting and film
        grain -- perfectly clean gradients are what make renders look fake."""
        w, h = self.w, self.h
        vx = [((x + 0.5 - w / 2) / (w / 2)) ** 2 for x in range(w)]
        vy = [((y + 0.5 - h / 2) / (h / 2)) ** 2 for y in range(h)]
        out = bytearray(w * h * 3)
        r, g, b = self.r, self.g, self.b
        rnd = rng.random
        k = 0
        for y in range(h):
            vyy = vy[y]
            base = y * w
            for x in range(w):
                i = base + x
                f = 1.0 - vignette * 0.5 * (vx[x] + vyy)
                n = (rnd() + rnd() - 1.0) * grain if grain else 0.0
                for v in (r[i] * f + n, g[i] * f + n, b[i] * f + n):
                    out[k] = 0 if v < 0.0 else 255 if v > 254.5 else int(v + 0.5)
                    k += 1
        return bytes(out)


# --------------------------------------------------------------------------
# Reusable landscape elements
# --------------------------------------------------------------------------

def paint_sky(cv, stops, y1):
    for y in range(min(y1, cv.h)):
        cv.fill_row(y, gradient(stops, y / max(1, y1 - 1)))


def paint_clouds(cv, rng, y1, cover, lit, shade, cell, aspect=2.5,
                 alpha=0.95, softness=0.2, lit_top=None):
    """Cumulus-ish clouds: thresholded fbm, brighter where the cloud gets
    denser just below a pixel (i.e. on the sun-facing upper surface).
    lit_top, if given, is the lit colour at the top of the frame, so that
    at sunset high clouds glow pink while low ones glow orange."""
    w = cv.w
    lit_bottom = lit
    lift = 5
    n = fbm2(w, y1 + lift, cell, rng, 5, aspect)
    for y in range(y1):
        # thinner toward the horizon, as clouds recede in perspective
        fy = smoothstep(y1, y1 * 0.35, y)
        if fy <= 0.0:
            continue
        if lit_top is not None:
            lit = mix(lit_top, lit_bottom, y / y1)
        base = y * w
        for x in range(w):
            i = base + x
            v = n[i]
            dens = smoothstep(cover, cover + softness, v) * fy
            if dens <= 0.0:
                continue
            light = clamp01(0.55 + (n[i + lift * w] - v) * 7.0 - (v - cover) * 1.2)
            cv.put(i, mix(shade, lit, light), dens * alpha)


def ridge_tops(w, rng, base, amp, cell, octaves=7, ridged=2, gain=0.5):
    prof = fbm1(w, cell, rng, octaves, gain=gain, ridged=ridged)
    return [base - amp * p for p in prof]


def paint_range(cv, tops, y_end, tex, shadow, mid, light, haze_col, haze,
                snow_y=None, mist=0.0, mist_h=30.0, relief=1.0, gullies=None,
                crowns=None, crown_amt=0.0, snow_col=(238, 240, 246)):
    """One mountain ridge from its skyline down to y_end.

    Sun from the left: faces where the ground climbs to the right are lit.
    The skyline slope, measured over a window that widens with depth, gives
    each peak a broad lit flank and a shadowed one; 'tex' adds rocky relief,
    'gullies' vertical couloirs that hold snow; distance is faked with haze."""
    w = cv.w
    ramp = [(0.0, shadow), (0.5, mid), (1.0, light)]
    snow_shadow = mix(snow_col, (112, 132, 170), 0.6)
    for x in range(w):
        top = tops[x]
        y0 = max(0, int(top))
        xm = max(0, x - 1)
        xp = min(w - 1, x + 1)
        for y in range(y0, y_end):
            i = y * w
            depth = y - top
            r = 2 + int(depth * 0.45)
            xa = x - r if x > r else 0
            xb = x + r if x + r < w else w - 1
            sl = (tops[xb] - tops[xa]) / (xb - xa)
            rel = -sl * 1.3 * (0.45 + 0.55 * math.exp(-depth / 90.0))
            rel += (tex[i + xp] - tex[i + xm]) * 8.0 * relief
            if gullies is not None:
                rel += (gullies[i + xp] - gullies[i + xm]) * 1.5 * relief
            lt = clamp01(0.5 + rel)
            col = gradient(ramp, lt)
            if crowns is not None:
                col = scale(col, 1.0 - crown_amt + 2.0 * crown_amt * crowns[i + x])
            if snow_y is not None:
                gv = gullies[i + x] if gullies is not None else tex[i + x]
                s = smoothstep(snow_y + 4.0, snow_y - 4.0,
                               y + (gv - 0.5) * 60.0 - lt * 15.0)
                # snow does not stick to the steepest rock
                s *= 1.0 - 0.75 * smoothstep(0.3, 0.55, abs(rel))
                if s > 0.0:
                    col = mix(col, mix(snow_shadow, snow_col, lt ** 0.8), s)
            hz = haze
            if mist:
                hz += (1.0 - hz) * mist * smoothstep(y_end - mist_h, y_end, y)
            col = mix(col, haze_col, hz)
            a = 1.0 - (top - y0) if y == y0 and top > y0 else 1.0
            cv.put(i + x, col, a)


def paint_flat_range(cv, tops, y_end, col_top, col_bottom):
    """Silhouette ridge with a mist gradient (dusk photographs).  The
    gradient runs in absolute rows so valleys fill with the same haze."""
    w = cv.w
    ymin = min(tops)
    span = max(1.0, y_end - ymin)
    for x in range(w):
        top = tops[x]
        y0 = max(0, int(top))
        for y in range(y0, y_end):
            col = mix(col_top, col_bottom, clamp01((y - ymin) / span) ** 0.8)
            a = 1.0 - (top - y0) if y == y0 and top > y0 else 1.0
            cv.put(y * w + x, col, a)


def conifer(cv, cx, base, height, width, col, rng, alpha=1.0,
            lit=None, shade_tex=None):
    """A spruce silhouette: a cone of drooping branch tiers with ragged,
    independently jittered left and right edges, on a short trunk."""
    w, h = cv.w, cv.h
    top = base - height
    rows = int(height) + 4
    jag_l = fbm1(rows, 2.5, rng, 3)
    jag_r = fbm1(rows, 2.5, rng, 3)
    tiers = max(5, int(height / rng.uniform(7.0, 11.0)))
    tier_w = [rng.uniform(0.75, 1.15) for _ in range(tiers + 1)]
    phase = rng.random()
    crown_end = base - height * 0.05
    yy0 = max(0, int(top))
    lean = rng.uniform(-0.025, 0.025)
    for y in range(yy0, min(h, int(base) + 1)):
        t = max(0.0, (y - top) / height)
        k = min(rows - 1, max(0, int(y - top)))
        saw = 0.0
        if y <= crown_end:
            ti = t * tiers + phase
            saw = (ti % 1.0) ** 1.4
            env = width * 0.5 * t ** 0.85 * tier_w[min(tiers, int(ti))]
            shape = 0.5 + 0.5 * saw
            hl = env * (shape + (jag_l[k] - 0.5) * 0.7)
            hr = env * (shape + (jag_r[k] - 0.5) * 0.7)
            hl = max(hl, 0.4)
            hr = max(hr, 0.4)
        else:
            hl = hr = max(0.6, width * 0.04)
        c = cx + lean * (base - y)
        x0, x1 = c - hl, c + hr
        for x in range(max(0, int(x0)), min(w, int(x1) + 2)):
            cov = clamp01(min(x + 1.0 - x0, x1 - x))
            if cov <= 0.0:
                continue
            pc = col
            if lit is not None:
                # sun from the left: the left flank of each tier catches light
                kk = clamp01((c - x) / (hl + 0.01)) * 0.7 * saw
                if shade_tex is not None:
                    kk *= 0.4 + 1.2 * shade_tex[y * w + x]
                pc = mix(col, lit, clamp01(kk))
            cv.put(y * w + x, pc, cov * alpha)


def round_tree(cv, cx, base, height, col, lit, rng, alpha=1.0):
    """Broadleaf tree: a cluster of overlapping leafy blobs on a trunk."""
    trunk_col = scale(col, 0.6)
    tw = max(1.0, height * 0.05)
    crown_r = height * 0.32
    ccy = base - height + crown_r
    for y in range(max(0, int(ccy)), min(cv.h, int(base))):
        for x in range(int(cx - tw), int(cx + tw) + 1):
            if 0 <= x < cv.w:
                cv.put(y * cv.w + x, trunk_col, alpha)
    blobs = []
    for _ in range(int(8 + height / 6)):
        ang = rng.uniform(0, 2 * math.pi)
        rad = crown_r * math.sqrt(rng.random()) * 0.75
        bx = cx + math.cos(ang) * rad * 1.15
        by = ccy + math.sin(ang) * rad * 0.9
        br = crown_r * rng.uniform(0.35, 0.55)
        blobs.append((by, bx, br))
    blobs.sort(key=lambda b: -b[0])
    for by, bx, br in blobs:
        # blobs higher and further left face the sun: lighter green
        k = clamp01(0.5 + (cx - bx) / (crown_r * 2.2) + (ccy - by) / (crown_r * 2.5))
        cv.disk(bx, by, br, mix(col, lit, k * 0.8), alpha)


def paint_reflection(cv, hy, water, rng, strength=0.8, ripple=4.0, y_end=None):
    """Mirror everything above the shoreline into a lake, broken up by
    horizontally stretched ripples that grow toward the viewer."""
    w, h = cv.w, cv.h
    y_end = h if y_end is None else y_end
    rows = y_end - hy
    rip = fbm2(w, rows, 30.0, rng, 4, aspect=7.0)
    r, g, b = cv.r, cv.g, cv.b
    for y in range(hy, y_end):
        d = y - hy
        t = d / rows
        k = strength * (1.0 - 0.45 * t)      # Fresnel: less mirror up close
        amp = ripple * (0.3 + t * 2.5)
        base = d * w
        for x in range(w):
            v = rip[base + x] - 0.5
            sy = hy - 1 - d + int(v * amp * 2.0)
            sy = 0 if sy < 0 else hy - 1 if sy > hy - 1 else sy
            sx = x + int(v * amp)
            sx = 0 if sx < 0 else w - 1 if sx > w - 1 else sx
            j = sy * w + sx
            sh = 0.92 + v * 0.5
            i = y * w + x
            r[i] = (water[0] * (1 - k) + r[j] * k) * sh
            g[i] = (water[1] * (1 - k) + g[j] * k) * sh
            b[i] = (water[2] * (1 - k) + b[j] * k) * sh


def paint_sea(cv, hy, y_end, tex, deep, near, fres_far=0.9,
              fres_near=0.25, chop=1.0, glint=None):
    """Open water in perspective.  Each pixel maps to a point on the sea
    plane; the wave texture there tilts the reflected ray, which both
    shades the waves and smears the sun/moon into a glitter path."""
    w = cv.w
    r, g, b = cv.r, cv.g, cv.b
    cx = w * 0.5
    rows = y_end - hy
    at = tex.at
    for y in range(hy, y_end):
        d = y - hy + 0.7
        t = (y - hy) / rows
        depth_col = mix(deep, near, t)
        fres = fres_near + (fres_far - fres_near) * math.exp(-d / (rows * 0.18))
        vv = 20000.0 / d
        su = 240.0 / d
        rate = vv / d                        # texels per screen row
        step = max(1.6, rate)
        # far waves are finer than a pixel: fade them out rather than alias
        detail = smoothstep(30.0, 5.0, rate)
        base = y * w
        for x in range(w):
            u = (x - cx) * su
            h0 = at(u, vv)
            slope = (at(u, vv + step) - h0) * detail * chop
            # reflected elevation: mirror row plus wave tilt
            sy = hy - 1 - int(d * 0.9 + slope * (18.0 + d * 1.6))
            sy = 0 if sy < 0 else hy - 1 if sy > hy - 1 else sy
            j = sy * w + x
            k = clamp01(fres + slope * 2.5)
            sh = 1.0 + (h0 - 0.5) * 0.35 * detail
            i = base + x
            r[i] = (depth_col[0] * (1 - k) + r[j] * k) * sh
            g[i] = (depth_col[1] * (1 - k) + g[j] * k) * sh
            b[i] = (depth_col[2] * (1 - k) + b[j] * k) * sh
            if glint is not None:
                gx, gw, gcol, gstr = glint
                # a widening column of sparkles under the sun or moon
                dx = (x - gx) / (gw * (0.25 + t * 1.8))
                pth = math.exp(-dx * dx)
                if pth > 0.02:
                    hf = at(u * 4.0 + 71.0, vv * 3.5 + 13.0)
                    sp = smoothstep(0.5, 0.72, hf + slope * 2.0)
                    sp = 0.55 + (sp - 0.55) * detail
                    f = clamp01(pth * sp * gstr)
                    r[i] += (gcol[0] - r[i]) * f
                    g[i] += (gcol[1] - g[i]) * f
                    b[i] += (gcol[2] - b[i]) * f


def grass_strokes(cv, rng, y0, y1, count, dark, light, max_len=14.0):
    """Short near-vertical blades; their length grows toward the camera."""
    w = cv.w
    for _ in range(count):
        t = rng.random() ** 0.6
        y = y0 + (y1 - y0) * t
        x = rng.uniform(0, w)
        ln = 1.0 + max_len * t ** 1.5 * rng.uniform(0.5, 1.0)
        tilt = rng.uniform(-0.35, 0.35)
        col = mix(dark, light, rng.random())
        a = rng.uniform(0.35, 0.8)
        steps = int(ln) + 1
        for s in range(steps):
            px = int(x + tilt * s)
            py = int(y - s)
            if 0 <= px < w and 0 <= py < cv.h:
                cv.put(py * w + px, col, a * (1.0 - s / (steps + 1)))


# --------------------------------------------------------------------------
# Scenes
# --------------------------------------------------------------------------

def scene_mountain_lake(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.62)
    paint_sky(cv, [(0.0, (48, 92, 160)), (0.55, (112, 156, 208)),
                   (1.0, (192, 210, 226))], hy)
    cv.glow(w * 0.82, h * 0.05, h * 0.5, (255, 236, 200), 0.35, 0, hy)
    paint_clouds(cv, rng, int(hy * 0.75), 0.55, (252, 252, 250), (150, 165, 188),
                 w * 0.2, aspect=2.2)
    rock = fbm2(w, hy, w * 0.06, rng, 5, aspect=0.8)
    gully = fbm2(w, hy, w * 0.02, rng, 3, aspect=0.25)
    far = ridge_tops(w, rng, hy - h * 0.09, h * 0.34, w * 0.5, gain=0.45)
    paint_range(cv, far, hy, rock, (44, 50, 70), (88, 88, 98), (150, 138, 124),
                (168, 188, 214), 0.24, snow_y=hy - h * 0.31, mist=0.55,
                mist_h=h * 0.12, gullies=gully)
    crowns = fbm2(w, hy, 2.5, rng, 2)
    mid = ridge_tops(w, rng, hy - h * 0.015, h * 0.15, w * 0.35, ridged=0)
    paint_range(cv, mid, hy, rock, (22, 38, 34), (46, 70, 54), (92, 112, 74),
                (150, 172, 190), 0.18, mist=0.45, mist_h=h * 0.06, relief=0.6,
                crowns=crowns, crown_amt=0.3)
    shore = ridge_tops(w, rng, hy + 1, h * 0.035, w * 0.2, ridged=0)
    paint_range(cv, shore, hy, rock, (14, 24, 18), (26, 44, 30), (54, 76, 44),
                (150, 172, 190), 0.05, relief=0.4, crowns=crowns, crown_amt=0.35)
    x = rng.uniform(0, 8)
    while x < w:
        top = shore[min(w - 1, int(x))]
        ht = rng.uniform(10, 26) * (h / 360.0)
        conifer(cv, x, min(hy, top + ht * 0.4), ht, ht * 0.36,
                (16, 28, 22), rng)
        x += rng.uniform(2.5, 11)
    paint_reflection(cv, hy, (34, 62, 78), rng, strength=0.82, ripple=3.0)
    return cv


def scene_alpine(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.64)
    paint_sky(cv, [(0.0, (40, 86, 156)), (0.6, (104, 150, 206)),
                   (1.0, (206, 216, 222))], hy)
    cv.glow(w * 0.1, h * 0.1, h * 0.45, (255, 230, 190), 0.4, 0, hy)
    paint_clouds(cv, rng, int(hy * 0.6), 0.58, (255, 253, 248), (160, 170, 190),
                 w * 0.16, aspect=3.0, alpha=0.85)
    rock = fbm2(w, hy + 40, w * 0.06, rng, 5, aspect=0.8)
    gully = fbm2(w, hy + 40, w * 0.02, rng, 3, aspect=0.25)
    far = ridge_tops(w, rng, hy - h * 0.12, h * 0.4, w * 0.55, gain=0.45)
    paint_range(cv, far, hy, rock, (42, 48, 68), (86, 86, 96), (156, 142, 124),
                (170, 190, 216), 0.2, snow_y=hy - h * 0.33, mist=0.5,
                mist_h=h * 0.14, gullies=gully)
    crowns = fbm2(w, hy + 40, 2.5, rng, 2)
    mid = ridge_tops(w, rng, hy + h * 0.01, h * 0.16, w * 0.4, ridged=0)
    paint_range(cv, mid, hy + 40, rock, (20, 40, 30), (44, 74, 48), (96, 122, 70),
                (150, 175, 195), 0.12, relief=0.6, crowns=crowns, crown_amt=0.35)
    # meadow in perspective
    y0 = hy + 20
    tex = Tex(256, 48, rng, 5, aspect=2.0)
    mline_n = fbm1(w, w * 0.2, rng, 4)
    for y in range(y0, h):
        d = y - y0 + 1.0
        t = (y - y0) / (h - y0)
        base = mix((128, 150, 70), (72, 104, 40), t)
        for x in range(w):
            # the meadow's far edge undulates in front of the forested hill
            mline = y0 + 4 + (mline_n[x] - 0.5) * 16
            if y < mline:
                continue
            v = tex.at((x - w / 2) * 90.0 / d, 4000.0 / d)
            cv.put(y * w + x, scale(base, 0.78 + 0.5 * v), clamp01(y - mline))
    grass_strokes(cv, rng, y0 + 10, h, 5000, (50, 78, 26), (170, 184, 92))
    for _ in range(9):
        ht = rng.uniform(28, 60)
        conifer(cv, rng.uniform(0, w), y0 + rng.uniform(4, 20), ht, ht * 0.32,
                (18, 34, 24), rng, lit=(60, 90, 50))
    shade = fbm2(w, h, 3.0, rng, 2)
    conifer(cv, w * 0.08, h * 1.05, h * 0.8, h * 0.3, (14, 30, 20), rng,
            lit=(70, 100, 48), shade_tex=shade)
    conifer(cv, w * 0.93, h * 1.02, h * 0.62, h * 0.26, (14, 30, 20), rng,
            lit=(70, 100, 48), shade_tex=shade)
    return cv


def scene_dusk_ridges(w, h, rng):
    cv = Canvas(w, h)
    paint_sky(cv, [(0.0, (44, 46, 92)), (0.35, (120, 88, 136)),
                   (0.62, (226, 132, 112)), (0.8, (250, 186, 120)),
                   (1.0, (253, 214, 150))], int(h * 0.62))
    for y in range(int(h * 0.62), h):
        cv.fill_row(y, (253, 214, 150))
    cv.glow(w * 0.62, h * 0.55, h * 0.25, (255, 210, 150), 0.6, core=0.9)
    layers = 6
    far_top, far_bot = (206, 142, 150), (236, 176, 148)
    near_top, near_bot = (34, 24, 52), (62, 42, 76)
    for k in range(layers):
        t = k / (layers - 1)
        base = h * (0.5 + 0.09 * k)
        amp = h * (0.12 + 0.05 * k)
        tops = ridge_tops(w, rng, base, amp, w * (0.6 - 0.06 * k), octaves=6,
                          ridged=2 * (k % 2 == 0), gain=0.45)
        ct = mix(far_top, near_top, t ** 0.8)
        cb = mix(far_bot, near_bot, t ** 0.8)
        paint_flat_range(cv, tops, h, ct, cb)
    return cv


def scene_sea_sunset(w, h, rng, sun_height=0.07, palette=0):
    cv = Canvas(w, h)
    hy = int(h * 0.6)
    if palette == 0:
        stops = [(0.0, (36, 38, 88)), (0.3, (104, 66, 118)), (0.62, (222, 112, 86)),
                 (0.88, (252, 182, 104)), (1.0, (255, 214, 150))]
        cloud_lit, cloud_dark = (255, 180, 110), (88, 52, 84)
        cloud_top = (236, 140, 150)
        deep = (28, 26, 58)
    else:
        stops = [(0.0, (60, 84, 138)), (0.4, (150, 140, 160)), (0.75, (236, 176, 120)),
                 (1.0, (255, 222, 160))]
        cloud_lit, cloud_dark = (255, 214, 160), (112, 96, 120)
        cloud_top = (230, 200, 200)
        deep = (34, 48, 76)
    paint_sky(cv, stops, hy)
    sx, sy = w * 0.56, hy - h * sun_height
    cv.glow(sx, sy, h * 0.35, (255, 200, 130), 0.55, 0, hy)
    paint_clouds(cv, rng, int(hy * 0.9), 0.54, cloud_lit, cloud_dark,
                 w * 0.14, aspect=6.0, alpha=0.9, softness=0.16,
                 lit_top=cloud_top)
    cv.glow(sx, sy, h * 0.08, (255, 232, 180), 0.7, 0, hy, core=1.0)
    cv.disk(sx, sy, h * 0.035, (255, 246, 222))
    if palette == 0:
        # a far headland in silhouette, hazy against the glow
        land = fbm1(w, w * 0.05, rng, 4)
        x1 = w * 0.3
        for x in range(int(x1)):
            env = smoothstep(x1, x1 * 0.4, x)
            top = hy - h * 0.035 * env * (0.5 + 0.5 * land[x])
            for y in range(int(top), hy):
                cv.put(y * w + x, (92, 56, 76), clamp01(y + 1 - top))
    tex = Tex(256, 36, rng, 4, aspect=3.0)
    paint_sea(cv, hy, h, tex, deep, scale(deep, 0.7), fres_far=0.92,
              fres_near=0.35, glint=(sx, w * 0.06, (255, 226, 170), 1.6))
    return cv


def scene_moon_sea(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.6)
    paint_sky(cv, [(0.0, (6, 10, 26)), (0.7, (16, 28, 58)), (1.0, (38, 56, 88))], hy)
    for _ in range(160):
        b = rng.random() ** 4
        cv.splat(rng.uniform(0, w), rng.uniform(0, hy * 0.85),
                 (230, 235, 255), 0.25 + 0.75 * b)
    mx, my, mr = w * 0.36, h * 0.2, h * 0.045
    paint_clouds(cv, rng, int(hy * 0.9), 0.62, (110, 120, 150), (24, 32, 56),
                 w * 0.25, aspect=5.0, alpha=0.8, softness=0.2)
    cv.glow(mx, my, h * 0.3, (170, 190, 230), 0.5, 0, hy, core=0.6)
    mare = fbm2(int(mr * 2 + 4), int(mr * 2 + 4), mr * 0.6, rng, 3)
    mw = int(mr * 2 + 4)
    for y in range(int(my - mr - 2), int(my + mr + 2)):
        for x in range(int(mx - mr - 2), int(mx + mr + 2)):
            d = math.hypot(x + 0.5 - mx, y + 0.5 - my)
            cov = clamp01(mr + 0.5 - d)
            if cov <= 0:
                continue
            m = mare[(y - int(my - mr - 2)) * mw + (x - int(mx - mr - 2))]
            limb = 1.0 - 0.25 * (d / mr) ** 2
            k = (0.8 + 0.2 * smoothstep(0.45, 0.6, m)) * limb
            cv.put(y * w + x, (246 * k, 244 * k, 232 * k), cov)
    tex = Tex(256, 36, rng, 4, aspect=3.0)
    paint_sea(cv, hy, h, tex, (8, 14, 30), (4, 8, 18), fres_far=0.9,
              fres_near=0.3, glint=(mx, w * 0.05, (220, 228, 240), 1.3))
    return cv


def scene_beach(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.36)
    paint_sky(cv, [(0.0, (46, 104, 178)), (0.7, (120, 174, 222)),
                   (1.0, (200, 222, 234))], hy)
    paint_clouds(cv, rng, int(hy * 0.95), 0.5, (255, 255, 255), (168, 182, 204),
                 w * 0.25, aspect=1.8, alpha=0.95)
    shore = int(h * 0.6)
    tex = Tex(256, 30, rng, 4, aspect=3.5)
    paint_sea(cv, hy, shore + 20, tex, (26, 84, 126), (52, 168, 170),
              fres_far=0.75, fres_near=0.12, chop=0.8)
    # a line of breaking surf, then the foam fan running up the sand
    surf = fbm1(w, w * 0.3, rng, 4)
    foam_n = fbm2(w, h, 6.0, rng, 3, aspect=3.0)
    for x in range(w):
        sy = h * 0.49 + (surf[x] - 0.5) * h * 0.02
        for y in range(int(sy) - 4, int(sy) + 7):
            i = y * w + x
            a = math.exp(-((y - sy) / 2.8) ** 2) * smoothstep(0.3, 0.55, foam_n[i])
            cv.put(i, (240, 246, 246), a * 0.95)
    edge = fbm1(w, w * 0.25, rng, 5)
    sand_tex = fbm2(w, h, 24.0, rng, 6, aspect=2.0)
    stex = Tex(256, 24, rng, 4, aspect=2.0)
    for x in range(w):
        fy = shore + (edge[x] - 0.5) * h * 0.06
        for y in range(int(hy), h):
            i = y * w + x
            if y < fy - 22:
                continue
            t = (y - shore) / (h - shore)
            dry = mix((222, 200, 164), (204, 180, 144), clamp01(t))
            # sand texture and wind ripples seen in perspective; ripples get
            # finer with distance and are faded out before they would alias
            dd = y - hy + 1.0
            st = stex.at((x - w / 2) * 90.0 / dd, 9000.0 / dd)
            rf = smoothstep(2.0, 0.7, 74000.0 / (dd * dd))
            rip = math.sin(74000.0 / dd + st * 9.0) * rf if rf > 0.0 else 0.0
            dry = scale(dry, 0.95 + 0.1 * sand_tex[i] + 0.06 * rip + 0.2 * (st - 0.5))
            wet = mix((160, 144, 118), (184, 166, 134), sand_tex[i])
            # thin water film on the wet sand mirrors the sky a little
            wet = mix(wet, (160, 190, 212), 0.35 * smoothstep(fy + 16, fy, y))
            wl = fy + 16 + (edge[min(w - 1, x + 40)] - 0.5) * 14
            c = mix(wet, dry, smoothstep(wl - 4, wl + 8, y))
            a = smoothstep(fy - 1.5, fy + 0.5, y)
            cv.put(i, c, a)
            foam = math.exp(-((y - fy) / 3.0) ** 2)
            foam *= smoothstep(0.35, 0.6, foam_n[i])
            lace = smoothstep(0.52, 0.6, foam_n[i]) * smoothstep(fy - 22, fy - 2, y) * (1 - a)
            cv.put(i, (236, 242, 240), clamp01(foam + lace * 0.8))
    # a trail of footprints: dents in the sand projected onto the ground
    # plane (camera 1.6 m up), shrinking and flattening with distance
    fpx = w * 1.0
    cam_c = fpx * 1.6
    z = (cam_c / (h - hy)) * 1.02
    side = 1
    while True:
        ys = hy + cam_c / z
        if ys < shore + h * 0.07:
            break
        wx = 0.25 + 0.3 * math.sin(z * 0.7) + side * 0.09
        xs = w * 0.5 + fpx * wx / z
        rx = fpx * 0.05 / z
        ry = cam_c * 0.13 / (z * z)
        for y in range(int(ys - ry) - 1, int(ys + ry) + 2):
            for x in range(int(xs - rx) - 1, int(xs + rx) + 2):
                if not (0 <= x < w and 0 <= y < h):
                    continue
                u = (x + 0.5 - xs) / rx
                v = (y + 0.5 - ys) / ry
                rr = u * u + v * v
                if rr > 1.3:
                    continue
                i = y * w + x
                if rr < 1.0:
                    # the wall facing away from the sun (upper left) is dark
                    k = 0.9 + 0.08 * (u + v) * 0.5 + 0.04 * rr
                else:
                    k = 1.04          # sand pushed up around the rim
                cv.put(i, scale(cv.get(i), k), smoothstep(1.3, 0.7, rr))
        z += 0.36
        side = -side
    return cv


def scene_headland(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.5)
    paint_sky(cv, [(0.0, (42, 98, 170)), (0.7, (118, 166, 214)),
                   (1.0, (196, 216, 230))], hy)
    paint_clouds(cv, rng, int(hy * 0.9), 0.52, (255, 255, 255), (160, 175, 198),
                 w * 0.2, aspect=2.0)
    # a low island far out on the horizon, blue with distance
    isl = fbm1(w, w * 0.06, rng, 4)
    x0, x1 = w * 0.06, w * 0.34
    for x in range(int(x0), int(x1)):
        env = max(0.0, math.sin((x - x0) / (x1 - x0) * math.pi)) ** 0.6
        top = hy - env * h * 0.04 * (0.6 + 0.4 * isl[x])
        for y in range(int(top), hy):
            cv.put(y * w + x, (118, 142, 166), clamp01(y + 1 - top))
    tex = Tex(256, 36, rng, 5, aspect=3.0)
    paint_sea(cv, hy, h, tex, (20, 64, 104), (16, 52, 84),
              fres_far=0.8, fres_near=0.2, chop=1.2)
    # the cliff: layered sandstone with a ragged sea-facing edge, a grass
    # cap, and wet dark rock at the waterline
    edge = fbm1(h, h * 0.2, rng, 5, gain=0.4)
    topl = fbm1(w, w * 0.2, rng, 5)
    wl_n = fbm1(w, 14.0, rng, 3)
    strata = fbm2(w, h, 40.0, rng, 3, aspect=3.0)
    crack = fbm2(w, h, 16.0, rng, 4, aspect=0.8)
    buttress = fbm1(w, 18.0, rng, 3)
    grass = fbm2(w, h, 4.0, rng, 3)
    ramp = [(0.0, (76, 66, 58)), (0.5, (136, 118, 98)), (1.0, (208, 190, 160))]

    def edge_x(y):
        return w * (0.6 + 0.08 * y / h) + (edge[min(h - 1, max(0, int(y)))] - 0.5) * w * 0.07

    for y in range(h):
        ex = edge_x(y)
        for x in range(max(1, int(ex)), w - 1):
            ty = h * (0.3 - 0.2 * (x - w * 0.6) / w) + (topl[x] - 0.5) * h * 0.05
            wl = h * 0.8 + (wl_n[x] - 0.5) * 6
            if y < ty or y > wl + 1:
                continue
            i = y * w + x
            cov = clamp01(x + 1 - ex) * clamp01(y + 1 - ty) * clamp01(wl + 1 - y)
            band = math.sin((y + (strata[i] - 0.5) * 60.0) * 0.42)
            crk = ((crack[i + 1] - crack[i - 1]) * 2.5 + (crack[i] - 0.5) * 0.2
                   + (buttress[x] - 0.5) * 0.45)
            # the face turned toward the sun near the edge is brightest
            lt = clamp01(0.45 + 0.16 * band + crk + 0.3 * smoothstep(ex + 30, ex, x))
            c = gradient(ramp, lt)
            c = mix(c, (30, 30, 30), smoothstep(wl - 30, wl, y) * 0.75)
            gl = smoothstep(ty + 5 + grass[i] * 16, ty + 1, y)
            c = mix(c, scale((84, 118, 52), 0.7 + 0.6 * grass[i]), gl)
            cv.put(i, c, cov)
    # surf breaking along the cliff foot and trailing off to the left
    ex_w = edge_x(h * 0.8)
    for x in range(max(0, int(ex_w) - 60), w):
        wl = h * 0.8 + (wl_n[x] - 0.5) * 6
        reach = smoothstep(ex_w - 60, ex_w, x)
        for y in range(int(wl) - 4, min(h, int(wl) + 10)):
            i = y * w + x
            a = math.exp(-((y - wl - 1.5) / (2.0 + 3.0 * reach)) ** 2)
            a *= smoothstep(0.35, 0.6, grass[i]) * reach
            cv.put(i, (232, 238, 240), a * 0.9)
    return cv


def scene_forest(w, h, rng):
    cv = Canvas(w, h)
    paint_sky(cv, [(0.0, (196, 200, 190)), (0.6, (214, 214, 200)),
                   (1.0, (150, 154, 132))], h)
    cv.glow(w * 0.28, -h * 0.05, h * 0.5, (255, 236, 190), 0.6, core=0.5)
    fog = (200, 204, 194)
    shade = fbm2(w, h, 3.0, rng, 2)
    layers = 6
    for k in range(layers):
        t = k / (layers - 1)
        col = mix(mix((54, 70, 58), fog, 0.8), (16, 24, 18), t ** 0.8)
        lit = mix(col, (120, 130, 90), 0.5)
        base = h * (0.55 + 0.08 * k)
        # ground strip for this layer, so gaps between trunks aren't sky
        for y in range(int(base - 2), h):
            cv.fill_row(y, mix(mix(col, fog, 0.2), (60, 58, 42), t * 0.6 * (y - base) / h))
        ht_lo, ht_hi = h * (0.18 + 0.3 * t ** 1.4), h * (0.3 + 0.75 * t ** 1.4)
        x = rng.uniform(-10, 5)
        while x < w + 20:
            ht = rng.uniform(ht_lo, ht_hi)
            conifer(cv, x, base + rng.uniform(0, h * 0.03), ht, ht * rng.uniform(0.26, 0.34),
                    col, rng, lit=lit if k > 2 else None, shade_tex=shade)
            x += ht * rng.uniform(0.12, 0.28) + 2
    # sunbeams through the mist: brightness varies with angle from the sun
    beams = fbm1(720, 30.0, rng, 3)
    sx, sy = w * 0.28, -h * 0.08
    for y in range(h):
        for x in range(w):
            ang = math.atan2(x - sx, y - sy)      # -pi/2..pi/2
            v = beams[int((ang + 1.6) / 3.2 * 719) % 720]
            f = smoothstep(0.5, 0.85, v) * 0.28 * (1.0 - y / h * 0.6)
            if f > 0.004:
                cv.put(y * w + x, (255, 244, 214), f)
    # forest floor and ferns in the near foreground
    grass_strokes(cv, rng, h * 0.9, h, 1500, (30, 40, 20), (110, 120, 70), 10)
    return cv


def scene_flower_field(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.46)
    paint_sky(cv, [(0.0, (50, 108, 184)), (0.7, (128, 176, 224)),
                   (1.0, (204, 222, 232))], hy)
    paint_clouds(cv, rng, int(hy * 0.95), 0.55, (255, 255, 255), (170, 182, 204),
                 w * 0.22, aspect=1.8)
    hills = ridge_tops(w, rng, hy, h * 0.07, w * 0.4, ridged=0)
    paint_flat_range(cv, hills, hy + 4, (134, 160, 176), (150, 172, 176))
    # a hedgerow: a continuous band of crowns with a few taller trees
    crown = fbm2(w, hy + 4, 3.0, rng, 3)
    hedge = fbm1(w, 9.0, rng, 4)
    big = fbm1(w, w * 0.08, rng, 3)
    tops = [hy + 2 - h * (0.012 + 0.03 * hd + 0.07 * smoothstep(0.6, 0.95, bg))
            for hd, bg in zip(hedge, big)]
    for x in range(w):
        top = tops[x]
        for y in range(max(0, int(top)), hy + 4):
            i = y * w + x
            k = crown[i] * 0.8 + 0.35 * smoothstep(top + 12, top, y)
            cv.put(i, mix((30, 46, 24), (104, 126, 60), clamp01(k)),
                   clamp01(y + 1 - top))
    patch = fbm2(w, h, w * 0.15, rng, 3)
    tex = Tex(256, 40, rng, 5, aspect=1.5)
    y0 = hy + 2
    for y in range(y0, h):
        d = y - y0 + 2.0
        t = (y - y0) / (h - y0)
        base = mix((120, 146, 64), (64, 104, 36), t)
        far = (1.0 - t) ** 2 * 0.4
        for x in range(w):
            v = tex.at((x - w / 2) * 60.0 / d, 3000.0 / d)
            c = scale(base, 0.75 + 0.55 * v)
            # far away, poppies too small to see still tint the grass red
            pr = far * smoothstep(0.45, 0.7, patch[y * w + x])
            cv.put(y * w + x, mix(c, (178, 52, 36), pr))
    grass_strokes(cv, rng, y0 + 6, h, 6000, (44, 80, 26), (156, 180, 84), 16)
    # poppies: dense but tiny at the back, few and large up front
    cols = [((200, 30, 24), 0.78), ((246, 240, 230), 0.1), ((240, 200, 40), 0.12)]
    for _ in range(7000):
        t = rng.random() ** 1.5
        y = y0 + 3 + (h - y0) * t
        x = rng.uniform(-5, w + 5)
        i = min(h - 1, int(y)) * w + max(0, min(w - 1, int(x)))
        if rng.random() > smoothstep(0.3, 0.6, patch[i]) + 0.15:
            continue
        pick = rng.random()
        for c, p in cols:
            if pick < p:
                break
            pick -= p
        rad = 0.4 + 4.2 * t ** 2 * rng.uniform(0.7, 1.2)
        cv.disk(x, y, rad, scale(c, 0.75))
        if rad > 1.5:
            cv.disk(x - rad * 0.2, y - rad * 0.25, rad * 0.65, c)
            cv.disk(x, y, rad * 0.22, (30, 24, 20))
    return cv


def scene_lavender(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.47)
    paint_sky(cv, [(0.0, (70, 96, 150)), (0.5, (176, 150, 160)),
                   (0.85, (246, 190, 130)), (1.0, (252, 214, 160))], hy)
    sx, sy = w * 0.16, hy - h * 0.1
    cv.glow(sx, sy, h * 0.35, (255, 210, 140), 0.55, 0, hy, core=0.8)
    paint_clouds(cv, rng, int(hy * 0.7), 0.62, (255, 214, 170), (140, 110, 130),
                 w * 0.25, aspect=4.0, alpha=0.8)
    hills = ridge_tops(w, rng, hy, h * 0.04, w * 0.3, ridged=0)
    paint_flat_range(cv, hills, hy + 3, (150, 120, 140), (170, 140, 140))
    x = rng.uniform(0, 20)
    while x < w:
        ht = rng.uniform(8, 18)
        round_tree(cv, x, hy + 2, ht, (70, 60, 70), (120, 100, 100), rng)
        x += rng.uniform(8, 40)
    round_tree(cv, w * 0.7, hy + 4, h * 0.16, (40, 40, 40), (110, 96, 80), rng)
    vx = w * 0.45
    tex = Tex(256, 6, rng, 3)
    for y in range(hy + 2, h):
        d = y - hy
        t = d / (h - hy)
        rows_px = d / 9.0            # screen width of one row spacing
        far = smoothstep(2.0, 5.5, rows_px)
        for x in range(w):
            u = (x - vx) / d * 9.0
            ph = u - math.floor(u)
            dist = abs(ph - 0.5) * 2.0
            fl = tex.at(u * 40.0, 3000.0 / d)
            inrow = smoothstep(0.75, 0.55, dist + (fl - 0.5) * 0.5)
            lav = mix((92, 64, 138), (176, 140, 206), clamp01(fl * 1.2 - 0.1 + (0.5 - ph) * 0.6))
            soil = mix((90, 80, 56), (126, 118, 72), fl)
            c = mix(soil, lav, inrow)
            # distant rows blur into a single purple-grey haze
            c = mix((120, 96, 142), c, far)
            c = mix(c, (250, 200, 150), 0.25 * (1 - t) ** 3)
            cv.put(y * w + x, c)
    return cv


def scene_night_sky(w, h, rng):
    cv = Canvas(w, h)
    hy = int(h * 0.8)
    paint_sky(cv, [(0.0, (4, 6, 16)), (0.6, (10, 16, 36)), (0.92, (26, 36, 60)),
                   (1.0, (64, 52, 58))], hy)
    # milky way: a noisy glowing band with dark dust lanes, along a diagonal
    ax, ay, bx, by = w * 0.1, -h * 0.05, w * 0.95, h * 0.85
    lx, ly = bx - ax, by - ay
    ll = math.hypot(lx, ly)
    nx, ny = -ly / ll, lx / ll
    glow_n = fbm2(w, hy, w * 0.12, rng, 5)
    dust = fbm2(w, hy, w * 0.06, rng, 4, aspect=2.0)
    for y in range(hy):
        for x in range(w):
            dd = ((x - ax) * nx + (y - ay) * ny) / (w * 0.16)
            band = math.exp(-dd * dd)
            if band < 0.02:
                continue
            i = y * w + x
            # diffuse glow everywhere in the band, clumpy star clouds on top,
            # and dark dust lanes hugging the centre line
            lanes = 1.0 - 0.85 * smoothstep(0.5, 0.68, dust[i]) * math.exp(-dd * dd * 4)
            v = band * (0.35 + 0.65 * smoothstep(0.35, 0.75, glow_n[i])) * lanes
            c = mix((120, 130, 170), (214, 194, 172), band * 0.6)
            cv.put(i, c, clamp01(v * 0.42))
    for _ in range(2600):
        if rng.random() < 0.45:
            s = rng.uniform(0.0, 1.0)
            off = rng.gauss(0, w * 0.12)
            x = ax + lx * s + nx * off
            y = ay + ly * s + ny * off
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, hy)
        if not (0 <= x < w and 0 <= y < hy):
            continue
        b = rng.random() ** 5
        tint = rng.choice([(200, 215, 255), (255, 245, 230), (255, 220, 180)])
        cv.splat(x, y, tint, 0.2 + 1.1 * b)
        if b > 0.45:
            cv.glow(x, y, 3.0 + 3 * b, tint, 0.0, int(y - 8), int(y + 9), core=0.6 * b)
    # hillside and a stand of spruces in silhouette
    hill = ridge_tops(w, rng, hy + h * 0.02, h * 0.1, w * 0.6, ridged=0)
    paint_flat_range(cv, hill, h, (10, 12, 18), (6, 8, 10))
    x = rng.uniform(0, 10)
    while x < w:
        if rng.random() < 0.55:
            ht = rng.uniform(20, 70)
            conifer(cv, x, hill[min(w - 1, int(x))] + 4, ht, ht * 0.3, (6, 8, 12), rng)
        x += rng.uniform(6, 24)
    return cv


def scene_desert(w, h, rng):
    """Dunes rendered as a real height field, column by column from the
    camera outward (the classic 'voxel space' terrain trick): only this
    gives the sinuous knife-edge crests with one lit and one shadowed side."""
    cv = Canvas(w, h)
    hy = int(h * 0.42)
    haze = (226, 214, 196)
    paint_sky(cv, [(0.0, (56, 108, 182)), (0.75, (138, 176, 212)),
                   (1.0, (222, 218, 206))], hy + 1)
    for y in range(hy + 1, h):
        cv.fill_row(y, haze)
    sun_x, sun_y = w * 0.2, h * 0.08
    cv.glow(sun_x, sun_y, h * 0.35, (255, 246, 220), 0.55, 0, hy + 1, core=1.0)
    paint_clouds(cv, rng, int(hy * 0.5), 0.66, (255, 255, 255), (200, 205, 220),
                 w * 0.3, aspect=5.0, alpha=0.6)

    n = 256
    big = Tex(n, 64, rng, 3, aspect=2.4)
    small = Tex(n, 16, rng, 3)
    # ridged noise: crests where the big field crosses its midpoint
    # (slightly rounded so the crest doesn't alias into stair steps)
    data = [34.0 * (1.0 - math.sqrt((2.0 * bv - 1.0) ** 2 + 0.003)) ** 1.2 + 4.0 * sv
            for bv, sv in zip(big.d, small.d)]
    at = Tex.from_data(n, data).at

    f = w * 0.9
    cam = 58.0
    cx = w * 0.5
    # light comes from the sun: left, fairly low, from behind the dunes
    lx, ly, lz = -0.85, 0.42, 0.35
    ll = math.sqrt(lx * lx + ly * ly + lz * lz)
    lx, ly, lz = lx / ll, ly / ll, lz / ll
    lit = (246, 200, 140)
    dark = (162, 108, 78)
    r_, g_, b_ = cv.r, cv.g, cv.b
    for x in range(w):
        dxs = (x - cx) / f
        ybuf = h              # rows >= ybuf are already painted
        prev = None
        pend = None           # partly covered crest pixel awaiting its background
        z = 22.0
        while z < 3000.0 and ybuf > 0:
            wx = dxs * z
            hv = at(wx, z)
            ys = hy + (cam - hv) * f / z
            if ys < ybuf:
                # central differences a texel wide keep the shading
                # continuous where a texel covers many pixels
                nx = (at(wx - 1.0, z) - at(wx + 1.0, z)) * 0.5
                nz = (at(wx, z - 1.0) - at(wx, z + 1.0)) * 0.5
                inv = 1.0 / math.sqrt(nx * nx + 1.0 + nz * nz)
                lam = (nx * lx + ly + nz * lz) * inv
                k = smoothstep(-0.05, 0.45, lam)
                col = mix(dark, lit, k)
                if z < 90.0:
                    # wind ripples, only resolvable close to the camera
                    rip = math.sin(wx * 5.0 + z * 3.0 + hv * 4.0)
                    col = scale(col, 1.0 + 0.025 * rip * k * smoothstep(90.0, 30.0, z))
                col = mix(col, haze, 1.0 - math.exp(-z / 1100.0))
                top = int(ys) + 1
                lo = max(top, 0)
                span = ybuf - ys
                for y in range(lo, ybuf):
                    c = col if prev is None else mix(col, prev, (y - ys) / span)
                    i = y * w + x
                    r_[i], g_[i], b_[i] = c
                    if pend is not None and pend[0] == y:
                        cv.put(i, pend[1], pend[2])
                        pend = None
                if 0 <= top - 1 < h:
                    pend = (top - 1, col, top - ys)
                prev = col
                ybuf = lo
            z += z * 0.0045
        if pend is not None:
            cv.put(pend[0] * w + x, pend[1], pend[2])
    return cv


# --------------------------------------------------------------------------
# Encoders
# --------------------------------------------------------------------------

def _paeth_row(row, prev, bpp):
    out = bytearray(len(row))
    for i in range(len(row)):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
        out[i] = (row[i] - pr) & 255
    return out


def posterize(rgb, step):
    """Snap channels to multiples of 'step'.  PNG is lossless, so every bit
    of smooth photographic texture costs bytes; steps of 3 are invisible in
    a textured picture yet keep a 480x360 PNG photo well under 80 KB."""
    table = bytes(min(255, (v + step // 2) // step * step) for v in range(256))
    return rgb.translate(table)


def _filter_cost(data):
    # residuals read as signed bytes: small magnitudes deflate best
    return sum(v if v < 128 else 256 - v for v in data)


def write_png(path, w, h, rgb):
    """Picks the PNG row filter with the smallest sum of absolute residuals
    per row (the usual heuristic), which keeps smooth photographic
    gradients small after deflate."""
    stride = w * 3
    prev = bytes(stride)
    raw = bytearray()
    for y in range(h):
        row = rgb[y * stride:(y + 1) * stride]
        left = bytes(3) + row[:-3]
        cands = [
            (0, row),
            (1, bytes([(a - l) & 255 for a, l in zip(row, left)])),
            (2, bytes([(a - u) & 255 for a, u in zip(row, prev)])),
            (3, bytes([(a - ((l + u) >> 1)) & 255 for a, l, u in zip(row, left, prev)])),
            (4, _paeth_row(row, prev, 3)),
        ]
        ftype, data = min(cands, key=lambda c: _filter_cost(c[1]))
        raw.append(ftype)
        raw += data
        prev = row

    with open(path, "wb") as f:
        f.write(png_from_scanlines(w, h, bytes(raw), level=9))


def write_jpeg(path, w, h, rgb, cjpeg):
    fd, tmp = tempfile.mkstemp(suffix=".ppm")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (w, h))
            f.write(rgb)
        subprocess.run([cjpeg, "-quality", str(JPEG_QUALITY), "-optimize",
                        "-outfile", path, tmp], check=True)
    finally:
        os.unlink(tmp)


# --------------------------------------------------------------------------
# The album
# --------------------------------------------------------------------------

L = (480, 360)   # landscape
P = (360, 480)   # portrait

# (relative path, scene, size, seed, JPEG film grain, extra scene arguments)
ALBUM = [
    ("IMG_2.jpg", scene_flower_field, L, 2, 3.0, {}),
    ("IMG_9.jpg", scene_lavender, L, 9, 3.0, {}),
    ("IMG_10.jpg", scene_forest, L, 10, 3.0, {}),
    ("IMG_101.jpg", scene_night_sky, P, 101, 3.5, {}),
    ("desert.jpg", scene_desert, L, 7, 2.5, {}),
    ("sunset.png", scene_sea_sunset, L, 5, 0.0, {}),
    ("Mountains/peak_3.jpg", scene_mountain_lake, L, 3, 3.0, {}),
    ("Mountains/peak_12.jpg", scene_alpine, L, 12, 3.0, {}),
    ("Mountains/lake.jpg", scene_mountain_lake, P, 44, 3.0, {}),
    ("Mountains/dusk.png", scene_dusk_ridges, L, 21, 0.0, {}),
    ("Sea/beach.jpg", scene_beach, P, 31, 3.0, {}),
    ("Sea/headland.jpg", scene_headland, L, 32, 3.0, {}),
    ("Sea/golden-hour.jpg", scene_sea_sunset, L, 33,
     3.0, {"sun_height": 0.16, "palette": 1}),
    ("Sea/moonlight.png", scene_moon_sea, L, 34, 0.0, {}),
]


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    outdir = argv[1] if len(argv) > 1 else os.path.join(repo, "demo", "album")
    cjpeg = shutil.which("cjpeg")
    if cjpeg is None:
        print("note: cjpeg not found (Debian: libjpeg-turbo-progs); "
              "writing every image as PNG (larger files)")
    for rel, scene, (w, h), seed, grain, kw in ALBUM:
        path = os.path.join(outdir, rel)
        if path.endswith(".jpg") and cjpeg is None:
            path = path[:-4] + ".png"
        as_png = path.endswith(".png")
        cv = scene(w, h, random.Random(seed), **kw)
        # Grain has its own random stream so tuning it never reshuffles a
        # scene; lossless PNGs get none, as noise is what PNG stores worst.
        rgb = cv.to_bytes(random.Random(seed * 7919 + 1),
                          grain=0.0 if as_png else grain)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if as_png:
            write_png(path, w, h, posterize(rgb, 3))
        else:
            write_jpeg(path, w, h, rgb, cjpeg)
        print("wrote %s (%dx%d, %d bytes)" % (os.path.relpath(path), w, h,
                                              os.path.getsize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
