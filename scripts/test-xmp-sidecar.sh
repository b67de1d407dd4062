#!/usr/bin/env bash
# Checks Sources/CXMP (ratings and labels written with exempi) on its own,
# outside the package: builds it with the sanitizers and a driver
# (scripts/xmp_sidecar_check.c), then writes new sidecars, darktable's and
# digiKam's, and JPEGs, and compares what exiftool and exiv2 read before
# and after; refuses hostile files (an XML bomb, 5 MiB, bad UTF-8, cut
# short, garbage, 100,000 nested elements) leaving them byte for byte;
# reads back every file written with the picker's own reader
# (pk_xmp_culling_read); and measures the median time of one write.
#   scripts/test-xmp-sidecar.sh [--keep]   (--keep: leave the files behind)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/xmp-sidecar.XXXXXX")
if [ "${1:-}" = --keep ]; then echo "files in $work"; else trap 'rm -rf "$work"' EXIT; fi

for tool in gcc exiftool exiv2 python3 djpeg; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done
python3 -c 'import PIL' 2>/dev/null || { echo "needs Python Pillow" >&2; exit 1; }

sources=("$root/Sources/CXMP/xmp_sidecar.c" "$root/Sources/CXMP/optional_exempi.c"
  "$root/Sources/CSystemCalls/optional_library.c" "$root/Sources/CSystemCalls/system_calls.c"
  "$root/Sources/CImaging/xmp_culling.c" "$root/Sources/CImaging/embedded_dates.c" "$root/scripts/xmp_sidecar_check.c")
include=(-I "$root/Sources/CXMP/include" -I "$root/Sources/CXMP" -I "$root/Sources/CSystemCalls/include"
  -I "$root/Sources/CImaging/include" -I "$root/Sources/CImaging")
warnings=(-Wall -Wextra -Werror)
# exempi is not linked: the drivers open it as the picker does.
gcc -O1 -g "${warnings[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
  "${include[@]}" "${sources[@]}" -ldl -lpthread -o "$work/check"
gcc -O2 "${warnings[@]}" "${include[@]}" "${sources[@]}" -ldl -lpthread -o "$work/check-fast"
if ldd "$work/check-fast" | grep -q exempi; then echo "FAIL: exempi is linked" >&2; exit 1; fi
echo "built: sanitized and -O2 drivers, exempi not linked"

# LeakSanitizer crashes on the thread-local storage of a library opened with
# dlopen under glibc 2.32 and later (google/sanitizers#1342); exempi has
# some. Nothing here keeps heap pointers in thread-local storage.
export LSAN_OPTIONS=use_tls=0:print_suppressions=0
# exempi prints its errors on stderr; they go to a file, shown on failure.
python3 - "$work" 2>"$work/stderr.log" <<'PY' || { echo "--- stderr:"; tail -20 "$work/stderr.log"; exit 1; }
import hashlib, json, os, random, shutil, stat, struct, subprocess, sys, time
from PIL import Image

work = sys.argv[1]
check, fast = os.path.join(work, "check"), os.path.join(work, "check-fast")
os.chdir(work)
random.seed(11)
failures = []
expected = {}  # every file written: the rating and label it must read back

def ok(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)
    return condition

def run(*args, binary=check, timeout=60):
    result = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    sys.stderr.write(result.stderr)
    return result.returncode, result.stdout.strip()

def write(path, rating=None, label=None, embed=False):
    args = ["embed" if embed else "sidecar", path]
    if rating is not None:
        args += ["rating", rating]
    if label is not None:
        args += ["label", label]
    rc, out = run(*args)
    if rc == 0:
        old = expected.get(path, (False, 0, 0))
        expected[path] = (True if rating is not None else old[0], rating if rating is not None else old[1],
                          label if label is not None else old[2])
    return rc, out

def exiftool(path, *tags):
    out = subprocess.run(["exiftool", "-s", "-s", "-s", *tags, path], capture_output=True, text=True).stdout
    return out.split("\n")[:-1]

def exiv2(path):
    """exiv2's XMP keys, types and values in order, without the toolkit's name."""
    out = subprocess.run(["exiv2", "-px", path], capture_output=True, text=True).stdout
    return [" ".join(line.split()) for line in out.splitlines()]

def without(lines, *prefixes):
    return [line for line in lines if not line.split(" ")[0].startswith(prefixes)]

def structure(path):
    out = subprocess.run(["exiftool", "-j", "-struct", "-G1", "-XMP:all", path], capture_output=True, text=True).stdout
    data = json.loads(out)[0]
    for key in ("SourceFile", "XMP-x:XMPToolkit"):
        data.pop(key, None)
    return data

def fingerprint(path):
    info = os.lstat(path)
    data = open(path, "rb").read() if stat.S_ISREG(info.st_mode) else b""
    return hashlib.sha256(data).hexdigest(), info.st_mtime_ns, info.st_ino, info.st_mode

def strays(folder):
    return [name for name in os.listdir(folder) if name.endswith(".tmp") or "._" in name]

rc, out = run("available")
ok(rc == 0 and out == "available", f"exempi opens: {out}")

# MARK: A new sidecar, then changes one at a time.
os.mkdir("new")
os.umask(0o022)
path = "new/IMG_0001.JPG.xmp"
rc, out = write(path, rating=4, label=1)
ok(rc == 0, f"new sidecar written: {out}")
ok(exiftool(path, "-XMP:Rating", "-XMP:Label") == ["4", "Red"], f"exiftool reads 4, Red: {exiftool(path, '-XMP:Rating', '-XMP:Label')}")
lines = exiv2(path)
ok("Xmp.xmp.Rating XmpText 1 4" in lines and "Xmp.xmp.Label XmpText 3 Red" in lines, f"exiv2 reads them: {lines}")
ok(open(path, "rb").read().startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<x:xmpmeta'), "written as darktable writes: XML declaration, no packet wrapper")
ok(stat.S_IMODE(os.stat(path).st_mode) == 0o644, f"new file 0644 under umask 022: {oct(os.stat(path).st_mode)}")
for change, want in [({"rating": -1}, ["-1", "Red"]), ({"label": 5}, ["-1", "Purple"]), ({"label": 0}, ["-1"]),
                     ({"rating": 0, "label": 2}, ["0", "Yellow"]), ({"rating": 5}, ["5", "Yellow"])]:
    rc, out = write(path, **change)
    got = exiftool(path, "-XMP:Rating", "-XMP:Label")
    ok(rc == 0 and got == want, f"change {change}: exiftool reads {got}")
os.umask(0o077)
rc, out = write("new/private.xmp", rating=1)
ok(rc == 0 and stat.S_IMODE(os.stat("new/private.xmp").st_mode) == 0o600, "new file 0600 under umask 077")
os.umask(0o022)
os.chmod(path, 0o640)
write(path, rating=3)
ok(stat.S_IMODE(os.stat(path).st_mode) == 0o640, "an existing file keeps its bits (0640)")
open("new/empty.xmp", "wb").close()
rc, out = write("new/empty.xmp", rating=2, label=3)
ok(rc == 0 and exiftool("new/empty.xmp", "-XMP:Rating", "-XMP:Label") == ["2", "Green"], "an empty file is taken as a new sidecar")
os.makedirs("new/real")
os.symlink("real/linked.xmp", "new/link.xmp")
open("new/real/linked.xmp", "wb").close()
rc, out = write("new/link.xmp", rating=4)
ok(rc == 0 and os.path.islink("new/link.xmp") and exiftool("new/real/linked.xmp", "-XMP:Rating") == ["4"],
   "through a symbolic link: the link stays, its target is written")
expected["new/real/linked.xmp"] = expected.pop("new/link.xmp")
rc, out = write("new/bad-change.xmp", rating=7)
ok(rc != 0 and not os.path.exists("new/bad-change.xmp"), f"a rating of 7 is refused: {out}")
ok(strays("new") == [] and strays("new/real") == [], "no temporary file left behind")

# MARK: darktable's sidecar: history, masks, labels, tags.
def history_item(num, operation, params, enabled=1, multi_name="", blend="gz11eJxjYIAACQYYOOHEgAYY0QVwggZ7CB6pfQQ"):
    return (f'     <rdf:li\n      darktable:num="{num}"\n      darktable:operation="{operation}"\n'
            f'      darktable:enabled="{enabled}"\n      darktable:modversion="{2 + num % 4}"\n'
            f'      darktable:params="{params}"\n      darktable:multi_name="{multi_name}"\n'
            f'      darktable:multi_name_hand_edited="0"\n      darktable:multi_priority="0"\n'
            f'      darktable:blendop_version="13"\n      darktable:blendop_params="{blend}"/>\n')

operations = [("rawprepare", "000000000000000000000000000000000000000000000000ff3f0000"),
              ("temperature", "0000c03f0000803f0000e03f0000807f"), ("highlights", "000000000000803f0000000000000000"),
              ("demosaic", "0000000000000000000000000000803f"), ("exposure", "00000000000000000000c03f00004842"),
              ("colorin", "gz48eJzjZhgFowARMDAwAAAJ0QAq"), ("filmicrgb", "gz02eJxjYBgFowARsDAwYAAAB9AAHQ"),
              ("retouch", "gz10eJztw0ENAAAIA6ANy/iB0AiQhyRBEARBEASB"), ("colorout", "gz35eJxjZBgFo2AUIAIAAbIAHQ"),
              ("gamma", "0000000000000000")]
history = "".join(history_item(i, op, params, multi_name="sky" if op == "retouch" else "")
                  for i, (op, params) in enumerate(operations))
darktable = f'''<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
    xmlns:darktable="http://darktable.sf.net/"
   exif:DateTimeOriginal="2023:07:14 18:22:05.045"
   xmp:Rating="2"
   xmpMM:DerivedFrom="IMG_0042.CR3"
   darktable:import_timestamp="63825123456000000"
   darktable:change_timestamp="63825129876000000"
   darktable:export_timestamp="-1"
   darktable:print_timestamp="-1"
   darktable:xmp_version="5"
   darktable:raw_params="0"
   darktable:auto_presets_applied="1"
   darktable:history_end="10"
   darktable:iop_order_version="4"
   darktable:iop_order_list="rawprepare,0,invert,0,temperature,0,highlights,0,cacorrect,0,hotpixels,0,rawdenoise,0,demosaic,0,retouch,0,exposure,0,colorin,0,filmicrgb,0,colorout,0,gamma,0"
   darktable:history_basic_hash="3d2c1f0e9b8a7766554433221100ffee"
   darktable:history_auto_hash="a1b2c3d4e5f60718293a4b5c6d7e8f90"
   darktable:history_current_hash="0f1e2d3c4b5a69788796a5b4c3d2e1f0">
   <darktable:colorlabels>
    <rdf:Seq>
     <rdf:li>0</rdf:li>
     <rdf:li>2</rdf:li>
    </rdf:Seq>
   </darktable:colorlabels>
   <dc:subject>
    <rdf:Bag>
     <rdf:li>beach</rdf:li>
     <rdf:li>darktable|format|CR3</rdf:li>
    </rdf:Bag>
   </dc:subject>
   <lr:hierarchicalSubject>
    <rdf:Bag>
     <rdf:li>places|Sydney|Bondi</rdf:li>
     <rdf:li>darktable|format|CR3</rdf:li>
    </rdf:Bag>
   </lr:hierarchicalSubject>
   <darktable:masks_history>
    <rdf:Seq>
     <rdf:li
      darktable:mask_num="7"
      darktable:mask_id="1689342011"
      darktable:mask_type="8"
      darktable:mask_name="brush #1"
      darktable:mask_version="6"
      darktable:mask_points="0000a03e0000403f9a99193e0000803f0000803f"
      darktable:mask_nb="5"
      darktable:mask_src="0000000000000000"/>
     <rdf:li
      darktable:mask_num="7"
      darktable:mask_id="1689342012"
      darktable:mask_type="12"
      darktable:mask_name="grp retouch"
      darktable:mask_version="6"
      darktable:mask_points="3b3c5a64010000000300000000000000"
      darktable:mask_nb="1"
      darktable:mask_src="0000000000000000"/>
    </rdf:Seq>
   </darktable:masks_history>
   <darktable:history>
    <rdf:Seq>
{history}    </rdf:Seq>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
'''
os.mkdir("darktable")
path = "darktable/IMG_0042.CR3.xmp"
open(path, "w").write(darktable)
shutil.copy(path, "darktable_original.xmp")
before, before_structure = exiv2(path), structure(path)
ok(len(before) > 120, f"exiv2 reads {len(before)} keys from the darktable sidecar")
rc, out = write(path, rating=5, label=4)
after, after_structure = exiv2(path), structure(path)
changed = ("Xmp.xmp.Rating", "Xmp.xmp.Label", "Xmp.darktable.colorlabels")
ok(rc == 0, f"darktable sidecar written: {out}")
ok(without(before, *changed) == without(after, *changed),
   "every other key and value survives, in order (exiv2 -px)")
ok([l for l in after if l.startswith("Xmp.darktable.colorlabels")] == ["Xmp.darktable.colorlabels XmpSeq 1 3"],
   "darktable:colorlabels holds blue (3) alone")
ok("Xmp.xmp.Rating XmpText 1 5" in after and "Xmp.xmp.Label XmpText 4 Blue" in after, "xmp:Rating 5, xmp:Label Blue")
operations_after = [l.split(" ")[-1] for l in after if "/darktable:operation" in l]
ok(operations_after == [op for op, _ in operations], f"history order kept: {operations_after}")
ok(after_structure.get("XMP-darktable:Colorlabels") == [3], "exiftool reads darktable's label as 3")
for key in ("XMP-xmp:Rating", "XMP-xmp:Label", "XMP-darktable:Colorlabels"):
    before_structure.pop(key, None)
    after_structure.pop(key, None)
ok(before_structure == after_structure, "exiftool -struct reads the same history, masks, tags and dates")
rc, out = write(path, label=0)
after = exiv2(path)
ok(rc == 0 and not any(l.startswith(("Xmp.darktable.colorlabels", "Xmp.xmp.Label")) for l in after),
   "label none removes xmp:Label and darktable:colorlabels")
ok(without(before, *changed) == without(after, *changed), "and keeps the rest")

# MARK: digiKam's sidecar: tags, face regions, its own labels.
digikam = '''<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:digiKam="http://www.digikam.org/ns/1.0/"
    xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/"
    xmlns:acdsee="http://ns.acdsee.com/iptc/1.0/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
    xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#"
    xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
   xmp:Rating="3"
   digiKam:ColorLabel="2"
   digiKam:PickLabel="1"
   MicrosoftPhoto:Rating="50"
   acdsee:categories="&lt;Categories&gt;&lt;Category Assigned=&quot;1&quot;&gt;People&lt;/Category&gt;&lt;/Categories&gt;">
   <digiKam:TagsList>
    <rdf:Seq>
     <rdf:li>People/Ann</rdf:li>
     <rdf:li>Places/Sydney</rdf:li>
    </rdf:Seq>
   </digiKam:TagsList>
   <MicrosoftPhoto:LastKeywordXMP>
    <rdf:Bag>
     <rdf:li>People/Ann</rdf:li>
     <rdf:li>Places/Sydney</rdf:li>
    </rdf:Bag>
   </MicrosoftPhoto:LastKeywordXMP>
   <lr:hierarchicalSubject>
    <rdf:Bag>
     <rdf:li>People|Ann</rdf:li>
     <rdf:li>Places|Sydney</rdf:li>
    </rdf:Bag>
   </lr:hierarchicalSubject>
   <dc:subject>
    <rdf:Bag>
     <rdf:li>Ann</rdf:li>
     <rdf:li>Sydney</rdf:li>
    </rdf:Bag>
   </dc:subject>
   <mwg-rs:Regions rdf:parseType="Resource">
    <mwg-rs:AppliedToDimensions stDim:w="6000" stDim:h="4000" stDim:unit="pixel"/>
    <mwg-rs:RegionList>
     <rdf:Bag>
      <rdf:li>
       <rdf:Description mwg-rs:Name="Ann" mwg-rs:Type="Face">
        <mwg-rs:Area stArea:x="0.41" stArea:y="0.33" stArea:w="0.12" stArea:h="0.18" stArea:unit="normalized"/>
       </rdf:Description>
      </rdf:li>
     </rdf:Bag>
    </mwg-rs:RegionList>
   </mwg-rs:Regions>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>
'''
os.mkdir("digikam")
path = "digikam/DSC_1234.xmp"
open(path, "w").write(digikam)
ok(run("read", path)[1].endswith('"has_rating": 1, "rating": 3, "label": 0}'),
   "read before: xmp:Rating 3 wins over PickLabel rejected; ColorLabel 2 (orange) is no label here")
before = exiv2(path)
changed = ("Xmp.xmp.Rating", "Xmp.xmp.Label", "Xmp.digiKam.ColorLabel", "Xmp.digiKam.PickLabel")
rc, out = write(path, rating=4, label=3)
after = exiv2(path)
ok(rc == 0, f"digiKam sidecar written: {out}")
ok(without(before, *changed) == without(after, *changed), "tags, keywords and face regions survive (exiv2 -px)")
ok("Xmp.digiKam.ColorLabel XmpText 1 4" in after and "Xmp.digiKam.PickLabel XmpText 1 0" in after and
   "Xmp.xmp.Label XmpText 5 Green" in after, "ColorLabel 4 (green), PickLabel rejected lifted to 0, xmp:Label Green")
ok(exiftool(path, "-XMP-digiKam:TagsList") == ["People/Ann, Places/Sydney"], "exiftool reads the tags list")
rc, out = write(path, rating=-1, label=0)
after = exiv2(path)
ok("Xmp.digiKam.PickLabel XmpText 1 1" in after and "Xmp.digiKam.ColorLabel XmpText 1 0" in after and
   not any(l.startswith("Xmp.xmp.Label") for l in after), "reject sets PickLabel 1; none sets ColorLabel 0")
open("digikam/accepted.xmp", "w").write(digikam.replace('digiKam:PickLabel="1"', 'digiKam:PickLabel="3"'))
write("digikam/accepted.xmp", rating=2)
ok("Xmp.digiKam.PickLabel XmpText 1 3" in exiv2("digikam/accepted.xmp"), "a rating leaves PickLabel accepted (3) as it was")

# MARK: Files that must be refused and left as they were.
os.mkdir("hostile")
bomb = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
bomb += "".join(f' <!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">\n' for i in range(1, 10))
bomb += ']>\n' + darktable.split("\n", 1)[1].replace('xmpMM:DerivedFrom="IMG_0042.CR3"', 'xmpMM:DerivedFrom="&lol9;"')
deep = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:a="http://example.com/a/">')
hostile = {
    "bomb.xmp": (bomb.encode(), "DOCTYPE or ENTITY"),
    "doctype_only.xmp": (b'<?xml version="1.0"?><!DOCTYPE x:xmpmeta SYSTEM "http://example.com/x.dtd">' +
                         darktable.split("\n", 1)[1].encode(), "DOCTYPE or ENTITY"),
    "five_mib.xmp": (darktable.replace("</x:xmpmeta>", " " * (5 << 20) + "</x:xmpmeta>").encode(), "larger than 4 MiB"),
    "bad_utf8.xmp": (darktable.replace("beach", "be\xe1ch").encode().replace(b"\xc3\xa1", b"\xe1"), "not valid UTF-8"),
    "overlong_utf8.xmp": (darktable.encode().replace(b"beach", b"be\xc0\xafch"), "not valid UTF-8"),
    "surrogate_utf8.xmp": (darktable.encode().replace(b"beach", b"be\xed\xa0\x80ch"), "not valid UTF-8"),
    "truncated.xmp": (darktable.encode()[:len(darktable) // 2], "cut short"),
    "truncated_in_tag.xmp": (darktable.encode()[:darktable.index("darktable:operation=") + 5], "cut short"),
    "garbage.xmp": (random.randbytes(3000), "not valid UTF-8"),
    "ascii_garbage.xmp": (b"this is no XML at all, not even a tag\n" * 20, "no x:xmpmeta"),
    "deep_100000.xmp": ((deep + "<a:b rdf:parseType=\"Resource\">" * 100000 + "</a:b>" * 100000 +
                         "</rdf:Description></rdf:RDF></x:xmpmeta>").encode(), "more than 128 deep"),
    "deep_100000_outside_rdf.xmp": (('<x:xmpmeta xmlns:x="adobe:ns:meta/">' + "<a>" * 100000 + "</a>" * 100000 +
                                     "</x:xmpmeta>").encode(), "more than 128 deep"),
    "svg.xmp": (b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>', "no x:xmpmeta"),
    "no_rdf.xmp": (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><foo/></x:xmpmeta>', "no rdf:RDF"),
    "mismatched.xmp": (darktable.replace("</dc:subject>", "</dc:subjects>").encode(), "cannot be parsed"),
    "two_roots.xmp": ((darktable.split("\n", 1)[1] * 2).encode(), "more than one root"),
}
for name, (data, reason) in hostile.items():
    path = os.path.join("hostile", name)
    open(path, "wb").write(data)
    print_before = fingerprint(path)
    rc, out = write(path, rating=1, label=1)
    ok(rc != 0 and reason in out and fingerprint(path) == print_before,
       f"{name} refused and untouched: {out[:110]}")
os.mkdir("hostile/a_directory.xmp")
rc, out = write("hostile/a_directory.xmp", rating=1)
ok(rc != 0 and "not a regular file" in out, f"a directory refused: {out}")
os.mkfifo("hostile/fifo.xmp")
rc, out = write("hostile/fifo.xmp", rating=1)
ok(rc != 0 and "not a regular file" in out, f"a FIFO refused without waiting: {out}")
ok(strays("hostile") == [], "no temporary file left behind")
allowed = deep + '<a:b rdf:parseType="Resource">' * 100 + '<a:c>deepest</a:c>' + "</a:b>" * 100 + "</rdf:Description></rdf:RDF></x:xmpmeta>"
open("hostile/deep_100.xmp", "w").write(allowed)
rc, out = write("hostile/deep_100.xmp", rating=3)
ok(rc == 0 and "deepest" in open("hostile/deep_100.xmp").read(), f"100 levels of structs are written and kept: {out}")

# Permission denied, as another user when root (root may write anywhere).
os.mkdir("locked")
open("locked/IMG.xmp", "w").write(darktable)
os.chmod("locked", 0o555)
as_other = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 and shutil.which("setpriv") else []
if as_other:
    os.chmod(work, 0o755)
    shutil.copy(fast, "check-other")
    os.chmod("check-other", 0o755)
result = subprocess.run([*as_other, os.path.join(work, "check-other" if as_other else "check"), "sidecar",
                         "locked/IMG.xmp", "rating", "1"], capture_output=True, text=True)
ok(result.returncode != 0 and result.stdout.strip() == f"cannot write locked/IMG.xmp: Permission denied",
   f"a read-only folder: {result.stdout.strip()}")
os.chmod("locked", 0o755)

# MARK: Threads and processes writing one file at once.
shutil.copy("darktable_original.xmp", "race.xmp")
rc, out = run("race", "race.xmp", 8, 25)
ok(rc == 0, f"threads take turns: {out}")
processes = [subprocess.Popen([fast, "race", "race.xmp", "2", "40"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
outputs = [p.communicate() for p in processes]
lines = exiv2("race.xmp")
ok(without(lines, "Xmp.xmp.Rating", "Xmp.xmp.Label", "Xmp.darktable.colorlabels") ==
   without(exiv2("darktable_original.xmp"), "Xmp.xmp.Rating", "Xmp.xmp.Label", "Xmp.darktable.colorlabels") and
   strays(".") == [], "three processes at once: the file stays whole, history and all, no temporary files; "
   + "; ".join(out.strip() for out, _ in outputs))

# MARK: Into a JPEG.
os.mkdir("jpeg")
def photo(name, *tags):
    Image.frombytes("RGB", (400, 300), random.randbytes(400 * 300 * 3)).resize((1600, 1200)).save(name, quality=88)
    if tags:
        subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", *tags, name], check=True)

def pixels(name):
    return hashlib.sha256(subprocess.run(["djpeg", "-ppm", name], capture_output=True, check=True).stdout).hexdigest()

def scan(name):
    """The bytes from the first SOS to the end: the compressed image."""
    data = open(name, "rb").read()
    at = 2
    while data[at + 1] != 0xDA:
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    return hashlib.sha256(data[at:]).hexdigest()

def outside_xmp(name):
    """The file without its standard XMP segment: all a write into it may change."""
    data = open(name, "rb").read()
    at = 2
    while data[at + 1] != 0xDA:
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if data[at + 1] == 0xE1 and data[at + 4:at + 33] == b"http://ns.adobe.com/xap/1.0/\0":
            return hashlib.sha256(data[:at] + data[at + 2 + length:]).hexdigest()
        at += 2 + length
    return hashlib.sha256(data).hexdigest()

def legacy(name):
    out = subprocess.run(["exiftool", "-j", "-G1", "-EXIF:all", "-IPTC:all", "-ICC_Profile:all", name],
                         capture_output=True, text=True).stdout
    data = json.loads(out)[0]
    data.pop("SourceFile")
    return data

photo("jpeg/tagged.jpg", "-Make=Canon", "-Model=Canon EOS R5", "-DateTimeOriginal=2023:07:14 18:22:05",
      "-GPSLatitude=33.8568", "-GPSLatitudeRef=S", "-IPTC:Keywords=beach", "-XMP-dc:Subject=beach",
      "-XMP-dc:Subject=holiday", "-XMP-dc:Title=At the beach")
os.chmod("jpeg/tagged.jpg", 0o604)
before = (pixels("jpeg/tagged.jpg"), scan("jpeg/tagged.jpg"), legacy("jpeg/tagged.jpg"), structure("jpeg/tagged.jpg"),
          outside_xmp("jpeg/tagged.jpg"))
rc, out = write("jpeg/tagged.jpg", rating=4, label=1, embed=True)
ok(rc == 0, f"into a JPEG: {out}")
ok(exiftool("jpeg/tagged.jpg", "-XMP:Rating", "-XMP:Label") == ["4", "Red"], "exiftool reads 4, Red from the JPEG")
ok(pixels("jpeg/tagged.jpg") == before[0], "its pixels decode the same (djpeg)")
ok(scan("jpeg/tagged.jpg") == before[1], "its compressed image is the same bytes")
ok(legacy("jpeg/tagged.jpg") == before[2], "its EXIF, IPTC and ICC profile read as they did")
ok(outside_xmp("jpeg/tagged.jpg") == before[4], "every byte outside its XMP segment is as it was")
after_structure = structure("jpeg/tagged.jpg")
for key in ("XMP-xmp:Rating", "XMP-xmp:Label"):
    after_structure.pop(key, None)
ok(after_structure == before[3], f"its other XMP is kept: {sorted(after_structure)}")
ok(stat.S_IMODE(os.stat("jpeg/tagged.jpg").st_mode) == 0o604, "its permission bits are kept")
write("jpeg/tagged.jpg", rating=-1, label=0, embed=True)
ok(exiftool("jpeg/tagged.jpg", "-XMP:Rating", "-XMP:Label") == ["-1"], "then rejected, no label")
photo("jpeg/plain.jpg", "-Make=NIKON CORPORATION", "-DateTimeOriginal=2021:12:31 23:59:59")
before = (pixels("jpeg/plain.jpg"), outside_xmp("jpeg/plain.jpg"))
rc, out = write("jpeg/plain.jpg", rating=5, label=5, embed=True)
ok(rc == 0 and exiftool("jpeg/plain.jpg", "-XMP:Rating", "-XMP:Label") == ["5", "Purple"] and
   (pixels("jpeg/plain.jpg"), outside_xmp("jpeg/plain.jpg")) == before, f"a JPEG without XMP gets a segment: {out}")
data = open("jpeg/plain.jpg", "rb").read()
ok(data[2:4] == b"\xff\xe0" and data.index(b"Exif\0\0") < data.index(b"http://ns.adobe.com/xap/1.0/\0"),
   "after its JFIF and Exif segments")
photo("jpeg/large_xmp.jpg", "-XMP-dc:Description=" + "A long caption. " * 6000)
before = outside_xmp("jpeg/large_xmp.jpg")
rc, out = write("jpeg/large_xmp.jpg", rating=2, embed=True)
has_extended = b"http://ns.adobe.com/xmp/extension/" in open("jpeg/large_xmp.jpg", "rb").read()
ok(rc == 0 and exiftool("jpeg/large_xmp.jpg", "-XMP:Rating") == ["2"] and
   exiftool("jpeg/large_xmp.jpg", "-XMP-dc:Description")[0] == ("A long caption. " * 6000).strip() and
   has_extended and outside_xmp("jpeg/large_xmp.jpg") == before,
   f"a JPEG with extended XMP keeps it byte for byte, and exiftool still reads its 96 KB caption: {out}")

def with_packet(source, name, packet):
    data = open(source, "rb").read()
    segment = b"http://ns.adobe.com/xap/1.0/\0" + packet
    open(name, "wb").write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment + data[2:])

photo("jpeg/source.jpg")
for name, packet, reason in [
        ("jpeg/bomb.jpg", bomb.encode(), "DOCTYPE or ENTITY"),
        ("jpeg/deep.jpg", (deep + "<rdf:li><rdf:Seq>" * 1600 + "</rdf:Seq></rdf:li>" * 1600 + "</rdf:Description></rdf:RDF></x:xmpmeta>").encode(), "more than 128 deep"),
        ("jpeg/broken.jpg", darktable.replace("</dc:subject>", "</dc:subjects>").encode(), "cannot be parsed")]:
    with_packet("jpeg/source.jpg", name, packet)
    print_before = fingerprint(name)
    rc, out = write(name, rating=1, embed=True)
    ok(rc != 0 and reason in out and fingerprint(name) == print_before, f"{name} refused and untouched: {out[:100]}")
Image.new("RGB", (8, 8)).save("jpeg/not_a_jpeg.png")
rc, out = write("jpeg/not_a_jpeg.png", rating=1, embed=True)
ok(rc != 0 and "only a JPEG" in out, f"a PNG refused: {out}")
ok(strays("jpeg") == [], "no temporary file left behind")

# MARK: Everything written reads back through the picker's reader.
paths = sorted(expected)
rc, out = run("read", *paths)
got = {entry["path"]: entry for entry in map(json.loads, out.splitlines())}
for path in paths:
    has, rating, label = expected[path]
    entry = got[path]
    ok((entry["has_rating"], entry["rating"], entry["label"]) == (int(has), rating if has else 0, label),
       f"read back {path}: rating {entry['rating']}, label {entry['label']}")

print(f"{len(failures)} failed" if failures else "xmp sidecar: all checks passed")
sys.exit(1 if failures else 0)
PY

# The median time of one write, from the -O2 driver: new sidecars, and the
# darktable sidecar above rewritten.
mkdir "$work/timing"
"$work/check-fast" time "$work/timing" 101 "$work/darktable_original.xmp"
