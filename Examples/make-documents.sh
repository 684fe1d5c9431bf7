#!/usr/bin/env bash
# Regenerates the sample folder Examples/Documents (or the folder given as $1).
#
# The folder is committed, so nobody needs to run this; it exists so that the sample can be
# changed and remade. It needs python3 and the `vips` command (Debian: libvips-tools).
# Pixels come from python (deterministic gradients and shapes written as PPM) and from
# `vips text`; vips encodes them as PNG, JPEG, WebP and GIF. The PDF and the zip are written
# by python with fixed contents and dates, so two runs give the same bytes for them.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/Documents}"

for tool in python3 vips; do
    command -v "$tool" >/dev/null || { echo "make-documents: '$tool' is missing (apt-get install python3 libvips-tools)" >&2; exit 1; }
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

rm -rf "$out"
mkdir -p "$out/holiday" "$out/Projects" "$out/Screenshots"

# --- Text-like files, PDF, zip, and raw pixels (PPM) for the images ----------------------
python3 - "$out" "$scratch" <<'PY'
import math, os, sys, zipfile

out, scratch = sys.argv[1], sys.argv[2]

def write(name, text):
    with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)

# Its name gives nothing away: only a search of the text ("lighthouse") finds it.
write("holiday/saturday-notes.txt", """Saturday, Brittany

A grey morning. We walked along the cliffs of the Pointe du Raz to the old lighthouse,
whose keeper's cottage is now a small museum of foghorns and lenses. Crêpes in Audierne
afterwards, then the long drive back with the windows down.
""")

write("testWORD_various-2024.txt", """testWORD various 2024
====================

A plain text file whose name mixes camelCase, an underscore, a hyphen and digits:
a name-word search for "test", "word", "various" or "2024" should find it.
""")

write("Résumé – Zoë Müller.md", """# Zoë Müller — Résumé

Product designer in Zürich. Searching for `resume`, `zoe` or `muller` finds this file:
matching ignores case and diacritics.

## Experience

- **2021–2024** Senior designer, Café Société (Genève)
- **2017–2021** Designer, Ångström Labs (Malmö)

## Languages

Deutsch, Français, English, Español.
""")

write("Отчёт о поездке.txt", """Отчёт о поездке в Санкт-Петербург

Даты: 12–15 марта 2024 года.
Цель: встреча с партнёрами и осмотр нового офиса.
Итог: договор подписан, следующая встреча в июне.
""")

write("会议记录.md", """# 会议记录 2024-06-18

- 参加者：王伟、李娜、Zoë Müller
- 议题：第三季度预算与产品发布计划
- 决定：下周五之前提交最终报告
""")

write("Ωmega-notes.txt", """Ωmega notes

Ideas for the Ωmega project: an index that is small, a scan that is fast,
a search that answers before you finish typing.
""")

write("ملاحظات الاجتماع.txt", """ملاحظات الاجتماع

الموضوع: خطة العمل للربع القادم.
الحضور: فريق التصميم وفريق التطوير.
""")

write("budget_2025.csv", """month,category,planned,actual
2025-01,rent,1200,1200
2025-01,groceries,450,482.35
2025-02,rent,1200,1200
2025-02,groceries,450,430.10
2025-03,travel,800,915.00
""")

write("Projects/addressBook-export.json", """{
  "exported": "2024-11-02T09:30:00Z",
  "contacts": [
    {"name": "Zoë Müller", "email": "zoe@example.org", "tags": ["design", "zürich"]},
    {"name": "王伟", "email": "wang.wei@example.com", "tags": ["partner"]},
    {"name": "Søren Kierkegaard", "email": "soren@example.dk", "tags": []}
  ]
}
""")

write("Crème brûlée recipe.html", """<!DOCTYPE html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Crème brûlée — la recette de grand-mère</title>
</head>
<body>
<h1>Crème brûlée</h1>
<p>Pour 6 ramequins&nbsp;: 500&nbsp;ml de crème, 6 jaunes d'œufs, 100&nbsp;g de sucre, une gousse de vanille.</p>
<ol>
<li>Chauffer la crème avec la vanille.</li>
<li>Fouetter les jaunes et le sucre, verser la crème, cuire 1&nbsp;h à 100&nbsp;°C.</li>
<li>Caraméliser au chalumeau juste avant de servir.</li>
</ol>
</body>
</html>
""")

write("holiday/itinerary.html", """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Naxos trip itinerary, August 2023</title></head>
<body><h1>Naxos, 5–19 August 2023</h1>
<table><tr><th>Day</th><th>Plan</th></tr>
<tr><td>1</td><td>Ferry from Piraeus, check in at Agios Prokopios</td></tr>
<tr><td>2</td><td>Beach, sunset at the Portara</td></tr></table>
</body></html>
""")

write("Projects/searchlightLogo_v2.svg", """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>Searchlight logo, draft 2</title>
  <defs>
    <radialGradient id="beam" cx="0.35" cy="0.35" r="0.8">
      <stop offset="0" stop-color="#fff6c2"/>
      <stop offset="1" stop-color="#f2a900"/>
    </radialGradient>
  </defs>
  <rect width="256" height="256" rx="48" fill="#1d2b53"/>
  <circle cx="110" cy="110" r="62" fill="url(#beam)" stroke="#ffffff" stroke-width="10"/>
  <line x1="156" y1="156" x2="214" y2="214" stroke="#ffffff" stroke-width="22" stroke-linecap="round"/>
</svg>
""")

# A real PDF, written by hand: three pages of Helvetica text, an Info dictionary with a title,
# and a correct cross-reference table, so that PDF readers and libvips open it.
def pdf(path, title, pages):
    def esc(s):
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    objects = []
    def add(body):
        objects.append(body)
        return len(objects)
    catalog = add(None)
    pages_id = add(None)
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    page_ids = []
    for lines in pages:
        ops = ["BT", "/F1 20 Tf", "72 760 Td", "(%s) Tj" % esc(lines[0]), "/F1 12 Tf", "0 -32 Td"]
        for line in lines[1:]:
            ops += ["(%s) Tj" % esc(line), "0 -18 Td"]
        ops.append("ET")
        stream = "\n".join(ops).encode("cp1252")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        page_ids.append(add(("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] "
                             "/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                             % (pages_id, font, content)).encode()))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = ("<< /Type /Pages /Kids [%s] /Count %d >>"
                             % (" ".join("%d 0 R" % p for p in page_ids), len(page_ids))).encode()
    info = add(("<< /Title (%s) /Author (Zo\\353 M\\374ller) /Producer (make-documents.sh) "
                "/CreationDate (D:20241002093000Z) >>" % esc(title)).encode())
    data = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        data += b"%010d 00000 n \n" % offset
    data += (b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
             % (len(objects) + 1, catalog, info, xref))
    with open(os.path.join(out, path), "wb") as f:
        f.write(data)

pdf("Quarterly Report 2024.pdf", "Quarterly Report Q3 2024", [
    ["Quarterly Report, Q3 2024", "Revenue grew 12% over Q2, driven by the new subscription plan.",
     "Costs stayed flat; the team grew from 14 to 16 people."],
    ["Highlights", "- Launched the search feature in 4 markets.", "- Index size per document cut by half.",
     "- Customer satisfaction: 4.6 / 5."],
    ["Outlook for Q4", "Focus on performance at a million documents and on the Linux release."],
])
pdf("Projects/Invoice #1042 (paid).pdf", "Invoice 1042", [
    ["Invoice #1042", "Date: 2024-05-31", "Design work, May 2024: 32 h x 95 EUR = 3040 EUR", "Status: paid"],
])

# A zip with fixed dates, so that it is byte-for-byte reproducible.
with zipfile.ZipFile(os.path.join(out, "Archive (old drafts).zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in [("drafts/letter-to-landlord.txt", "Dear Mr. Dupont,\nthe heating has failed again.\n"),
                       ("drafts/poem_v1.txt", "Ωmega, the last letter,\nthe first search.\n")]:
        info = zipfile.ZipInfo(name, date_time=(2022, 3, 14, 15, 9, 26))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, text)

# A Keynote presentation in the XML package of iWork '09 (a zip holding index.apxl).
keynote = """<?xml version="1.0"?>
<key:presentation xmlns:sfa="http://developer.apple.com/namespaces/sfa" \
xmlns:sf="http://developer.apple.com/namespaces/sf" xmlns:key="http://developer.apple.com/namespaces/keynote2">
  <key:metadata>
    <key:title><sf:string sfa:string="Beekeeping in winter"/></key:title>
    <key:authors><sf:string sfa:string="Ada Quince"/></key:authors>
  </key:metadata>
  <key:slide-list>
    <key:slide><sf:text-body><sf:p>Clustering bees keep the queen warm</sf:p></sf:text-body>
      <key:notes><sf:text-body><sf:p>Mention the candy board</sf:p></sf:text-body></key:notes></key:slide>
  </key:slide-list>
</key:presentation>
"""
with zipfile.ZipFile(os.path.join(out, "Projects", "Beekeeping talk.key"), "w", zipfile.ZIP_DEFLATED) as z:
    info = zipfile.ZipInfo("index.apxl", date_time=(2023, 1, 20, 9, 30, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, keynote)

# Raw pixels for the images: binary PPMs that vips converts.
def ppm(name, width, height, pixel):
    rows = bytearray()
    for y in range(height):
        for x in range(width):
            rows += bytes(max(0, min(255, int(c))) for c in pixel(x, y))
    with open(os.path.join(scratch, name), "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height) + rows)

def sunset(x, y, w=480, h=320):
    horizon = h * 0.62
    sun = math.hypot(x - w * 0.5, y - horizon + 10)
    if y < horizon:  # sky: orange to violet, with a sun
        t = y / horizon
        r, g, b = 255 - 60 * (1 - t), 90 + 90 * t, 120 * (1 - t) + 40
        if sun < 46:
            r, g, b = 255, 236, 160
        elif sun < 80:
            k = (80 - sun) / 34
            r, g, b = r + (255 - r) * k * 0.6, g + (200 - g) * k * 0.6, b
        return r, g, b
    t = (y - horizon) / (h - horizon)  # sea with waves reflecting the sun
    wave = 18 * math.sin(x / 9 + 3 * math.sin(y / 5))
    glow = max(0, 1 - abs(x - w * 0.5) / (60 + 40 * t)) * 160
    return 30 + glow + wave, 60 + 40 * t + glow * 0.6 + wave, 110 + 60 * t + wave
ppm("sunset.ppm", 480, 320, sunset)

def naxos(x, y):  # a white wall, a blue door, a blue sky
    if y < 90:
        return 70, 140 + y // 3, 230
    if 150 < x < 230 and y > 150:
        return 20, 70, 170
    return 240 - (x + y) % 7, 238, 230
ppm("naxos.ppm", 360, 270, naxos)

def screenshot(x, y):  # a window with a title bar, a sidebar and a few list rows
    if y < 28:
        return (236, 236, 236) if not (12 < x < 60 and 9 < y < 19) else (255, 95, 86)
    if x < 140:
        return (246, 246, 248) if (y - 40) % 30 > 20 or x < 16 else (200, 210, 230)
    if (y - 40) % 26 < 2:
        return 225, 225, 225
    return (255, 255, 255) if (y // 26) % 2 else (248, 250, 255)
ppm("screenshot.ppm", 640, 400, screenshot)

def spinner(x, y):  # a ring of dots
    angle = math.atan2(y - 48, x - 48)
    radius = math.hypot(x - 48, y - 48)
    if 28 < radius < 40:
        shade = (angle + math.pi) / (2 * math.pi)
        return 40 + 200 * shade, 120, 220 - 160 * shade
    return 255, 255, 255
ppm("spinner.ppm", 96, 96, spinner)
PY

# --- Images: encode the pixels, render some text --------------------------------------------
vips copy "$scratch/sunset.ppm" "$out/holiday/beach_sunset.jpg[Q=80,strip]"
vips copy "$scratch/naxos.ppm" "$out/holiday/Παραλία Νάξος 2023.webp[Q=75,strip]"
vips copy "$scratch/spinner.ppm" "$out/holiday/loading-spinner.gif"
vips copy "$scratch/screenshot.ppm" "$out/Screenshots/Screenshot 2024-06-18 at 14.03.22.png[compression=9,strip]"

# A diagram with real rendered text: `vips text` renders white on black; invert it to black on white.
vips text "$scratch/label.v" "<b>Searchlight</b>
scan → extract → index → search" --font "DejaVu Sans 18" --dpi 96 --width 420
vips invert "$scratch/label.v" "$scratch/label-inverted.v"
vips embed "$scratch/label-inverted.v" "$scratch/label-padded.v" 20 20 460 110 --extend white
vips copy "$scratch/label-padded.v" "$out/Projects/architecture_diagram-v3.png[compression=9,strip]"

# A scanned letter: an image-only PDF (no text layer), read by OCR only. The page is rendered
# text at 150 dpi, turned a little and speckled as a scanner would, saved as a greyscale JPEG
# and wrapped into a one-page PDF by image-pdf.py (the JPEG as is, DCTDecode).
mkdir -p "$out/Scans"
vips text "$scratch/letter.v" "Harbour Street Bakery
14 Harbour Street, Whitby

Dear Mrs Pennington,

Thank you for your order of a three-tier wedding cake with
lemon sponge and elderflower buttercream. The delivery to
St Mary's church hall is booked for Saturday 14 June at 10 am.

The balance of 185 pounds is due one week before the wedding.

Kind regards,
Margaret Ellis" --font "DejaVu Serif 12" --dpi 150 --width 1000
vips invert "$scratch/letter.v" "$scratch/letter-ink.v"
vips embed "$scratch/letter-ink.v" "$scratch/letter-page.v" 120 160 1240 1754 --extend white
vips similarity "$scratch/letter-page.v" "$scratch/letter-turned.v" --angle 0.7 --background 255
vips gaussnoise "$scratch/speckle.v" 1240 1754 --sigma 10 --mean 0 --seed 22
vips extract_area "$scratch/letter-turned.v" "$scratch/letter-cut.v" 0 0 1240 1754
vips add "$scratch/letter-cut.v" "$scratch/speckle.v" "$scratch/letter-noisy.v"
vips cast "$scratch/letter-noisy.v" "$scratch/letter.jpg[Q=60,strip]" uchar
python3 "$here/image-pdf.py" "$scratch/letter.jpg" "$out/Scans/Letter from the bakery (scan).pdf" 150

echo "make-documents: wrote $(find "$out" -type f | wc -l) files, $(du -sk "$out" | cut -f1) KiB, into $out"
