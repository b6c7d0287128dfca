#!/usr/bin/env python3
"""Check a chart's layout dump (kbench chart --dump-layout) for legibility.

    layout_check.py DUMP...

For every dump: the canvas is at most 4000 x 4000; every text box
(text.I, rotation included) and every data or legend mark lies inside the
canvas; no text is smaller than 8 px at scale 1; no two text boxes
overlap (rotated boxes are compared as rotated rectangles).  Prints one
line per problem and exits 1 when there is any, else prints a summary.
"""
import sys

TOL = 0.5           # boxes may touch, and be off by rounding
LINE_KEYS = ("seg.", "err.", "whisker.", "ci.", "zero", "change.", "mean.")


def parse(path):
    d = {"texts": [], "marks": []}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            key, _, rest = line.partition("=")
            if key == "chart.size":
                w, h = rest.split("x")
                d["w"], d["h"] = float(w), float(h)
            elif key.startswith("text."):
                geo, _, attrs = rest.partition(" ")
                x, y, w, h = map(float, geo.split(","))
                a = {}
                for part in attrs.split(" "):
                    k, _, v = part.partition("=")
                    if k in ("size", "angle", "quad"):
                        a[k] = v
                    if k == "text":
                        break
                quad = [tuple(map(float, p.split(":"))) for p in a["quad"].split(";")]
                text = attrs[attrs.index("text=") + 5:]
                d["texts"].append((key, (x, y, w, h), float(a["size"]), quad, text))
            elif key in ("plot", "legend") or key.startswith(("legend.", "title")):
                geo = rest.split(" ")[0]
                d["marks"].append((key, "rect", list(map(float, geo.split(",")))))
            elif rest and rest[0] in "-0123456789" and "." in key or key in ("zero", "band"):
                geo = rest.split(" ")[0]
                try:
                    v = list(map(float, geo.split(",")))
                except ValueError:
                    continue
                if key.startswith(("xtick.", "ytick.", "xaxis", "yaxis")):
                    continue
                if len(v) not in (2, 4):
                    continue
                kind = "line" if key.startswith(LINE_KEYS) else "rect" if len(v) == 4 else "point"
                d["marks"].append((key, kind, v))
    return d


def separated(p, q):
    """Separating-axis test for two convex quads, with tolerance TOL."""
    for poly in (p, q):
        for i in range(4):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % 4]
            nx, ny = y1 - y2, x2 - x1
            ln = (nx * nx + ny * ny) ** 0.5
            if ln == 0:
                continue
            nx, ny = nx / ln, ny / ln
            a = [x * nx + y * ny for x, y in p]
            b = [x * nx + y * ny for x, y in q]
            if max(a) <= min(b) + TOL or max(b) <= min(a) + TOL:
                return True
    return False


def check(path):
    d = parse(path)
    bad = []
    W, H = d.get("w", 0), d.get("h", 0)
    if not (0 < W <= 4000 and 0 < H <= 4000):
        bad.append("canvas %gx%g is not within 4000x4000" % (W, H))
    for key, (x, y, w, h), size, quad, text in d["texts"]:
        if size < 8:
            bad.append("%s %r: size %g < 8" % (key, text, size))
        if x < -TOL or y < -TOL or x + w > W + TOL or y + h > H + TOL:
            bad.append("%s %r: box %.1f,%.1f,%.1f,%.1f leaves the %gx%g canvas"
                       % (key, text, x, y, w, h, W, H))
    t = d["texts"]
    for i in range(len(t)):
        bi = t[i][1]
        for j in range(i + 1, len(t)):
            bj = t[j][1]
            if (bi[0] + bi[2] <= bj[0] + TOL or bj[0] + bj[2] <= bi[0] + TOL or
                    bi[1] + bi[3] <= bj[1] + TOL or bj[1] + bj[3] <= bi[1] + TOL):
                continue
            if not separated(t[i][3], t[j][3]):
                bad.append("%s %r overlaps %s %r" % (t[i][0], t[i][4], t[j][0], t[j][4]))
    for key, kind, v in d["marks"]:
        if kind == "rect":
            x, y, w, h = v
            pts = [(x, y), (x + w, y + h)]
        elif kind == "line":
            pts = [(v[0], v[1]), (v[2], v[3])]
        else:
            pts = [(v[0], v[1])]
        for px, py in pts:
            if px < -TOL or py < -TOL or px > W + TOL or py > H + TOL:
                bad.append("%s: %s leaves the %gx%g canvas" % (key, v, W, H))
                break
    for b in bad:
        print("%s: %s" % (path, b))
    if not bad:
        print("%s: ok (%gx%g, %d texts, %d marks)" % (path, W, H, len(t), len(d["marks"])))
    return not bad


def main():
    ok = True
    for p in sys.argv[1:]:
        ok = check(p) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
