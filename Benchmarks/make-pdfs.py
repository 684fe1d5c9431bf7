#!/usr/bin/env python3
"""Writes COUNT multi-page PDFs with text and vector shapes into DIR (for thumbnails.sh)."""
import random, sys

def pdf(pages, rng):
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None,
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for page in range(pages):
        ops = []
        for _ in range(60):
            ops.append(b"%.2f %.2f %.2f rg %d %d %d %d re f" % (
                rng.random(), rng.random(), rng.random(),
                rng.randrange(0, 560), rng.randrange(0, 740), rng.randrange(10, 200), rng.randrange(10, 200)))
        ops.append(b"0 0 0 rg BT /F1 11 Tf 50 760 Td 14 TL")
        for line in range(50):
            words = b" ".join(rng.choice([b"lorem", b"ipsum", b"dolor", b"sit", b"amet", b"report", b"quarterly", b"index"])
                              for _ in range(12))
            ops.append(b"(" + words + b") '")
        ops.append(b"ET")
        content = b"\n".join(ops)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % len(objects))
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % pages
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out

folder, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(42)
for index in range(count):
    with open("%s/document-%02d.pdf" % (folder, index), "wb") as f:
        f.write(pdf(5, rng))
