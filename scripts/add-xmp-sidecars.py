#!/usr/bin/env python3
"""Give every photo of a library an XMP sidecar, as a darktable user's
library has: `IMG_0001.JPG.xmp` beside it with a rating (a tenth of them
rejected), a colour label on some, and a short edit history, so the
index benchmark measures a scan that reads a sidecar per photo.

Usage:  scripts/add-xmp-sidecars.py DIR [--seed S]

Videos get none (darktable does not import them). Existing sidecars are
left as they are.
"""

import argparse, os, random

PHOTOS = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".tif", ".tiff", ".dng", ".cr2", ".nef", ".arw")

SIDECAR = """<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:darktable="http://darktable.sf.net/"
   xmp:Rating="{rating}"
   xmpMM:DerivedFrom="{name}"
   darktable:xmp_version="5"
   darktable:history_end="2">
   <darktable:colorlabels>
    <rdf:Seq>{labels}</rdf:Seq>
   </darktable:colorlabels>
   <darktable:history>
    <rdf:Seq>
     <rdf:li darktable:num="0" darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6"
       darktable:params="0000000000000000cdcccc3e0000000000000000" darktable:multi_name="" darktable:multi_priority="0"/>
     <rdf:li darktable:num="1" darktable:operation="colorin" darktable:enabled="1" darktable:modversion="7"
       darktable:params="gz48eJzjZBgFowABWAYaAADFAAAf" darktable:multi_name="" darktable:multi_priority="0"/>
    </rdf:Seq>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    written = 0
    for folder, subfolders, names in os.walk(args.dir):
        subfolders.sort()
        for name in sorted(names):
            if not name.lower().endswith(PHOTOS):
                continue
            path = os.path.join(folder, name + ".xmp")
            if os.path.exists(path):
                continue
            rating = -1 if rng.random() < 0.1 else rng.randint(0, 5)
            labels = "".join(f"<rdf:li>{n}</rdf:li>" for n in rng.sample(range(5), rng.choice((0, 0, 0, 1, 2))))
            with open(path, "w") as out:
                out.write(SIDECAR.format(rating=rating, name=name, labels=labels))
            written += 1
    print(f"{written} sidecars written")


if __name__ == "__main__":
    main()
