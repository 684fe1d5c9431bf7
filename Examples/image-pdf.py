#!/usr/bin/env python3
"""Wraps a JPEG into a one-page PDF with no text layer, as a scanner makes them.

Usage: image-pdf.py IMAGE.jpg OUT.pdf DPI   (the page's size is the image's at DPI)
The JPEG is embedded as it is (DCTDecode), greyscale or RGB.
"""
import struct, sys
source, target, dpi = sys.argv[1], sys.argv[2], int(sys.argv[3])
jpeg = open(source, "rb").read()
# The JPEG's size from its SOF0/SOF2 marker.
i = 2
while True:
    marker, length = jpeg[i + 1], struct.unpack(">H", jpeg[i + 2:i + 4])[0]
    if marker in (0xC0, 0xC1, 0xC2):
        height, width = struct.unpack(">HH", jpeg[i + 5:i + 9])
        components = jpeg[i + 9]
        break
    i += 2 + length
points = (width * 72 / dpi, height * 72 / dpi)
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Scan 4 0 R >> >> /Contents 5 0 R >>" % points,
    b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /%s /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n" % (width, height, b"DeviceGray" if components == 1 else b"DeviceRGB", len(jpeg)) + jpeg + b"\nendstream",
]
drawing = b"q %.2f 0 0 %.2f 0 0 cm /Scan Do Q" % points
objects.append(b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream")
pdf = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
offsets = []
for number, body in enumerate(objects, start=1):
    offsets.append(len(pdf))
    pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
xref = len(pdf)
pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
for offset in offsets:
    pdf += b"%010d 00000 n \n" % offset
pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
open(target, "wb").write(pdf)
