#!/usr/bin/env python3
"""Writes a PDF of scanned pages (JPEGs with no text layer), as a scanner makes them, with
pages of real text among them when asked, and the metadata scanners write.

Usage:
  image-pdf.py IMAGE.jpg OUT.pdf DPI          one scanned page (its size is the image's at DPI)
  image-pdf.py OUT.pdf DPI [--info KEY=VALUE]... PAGE...
      PAGE is --image FILE.jpg (a scanned page) or --text "words" (a page of text in Helvetica,
      on a letter-size page); --stamp "words" writes a line of text on the scan before it (the
      "Scanned by …" an app adds); --info adds to the Info dictionary (Title, Subject, Keywords,
      Producer…), as tiff2pdf's "Subject: Converted: …".
The JPEGs are embedded as they are (DCTDecode), greyscale or RGB.
"""
import struct, sys


def jpeg_size(jpeg):
    """(width, height, components) from the JPEG's SOF0/SOF1/SOF2 marker."""
    i = 2
    while True:
        marker, length = jpeg[i + 1], struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", jpeg[i + 5:i + 9])
            return width, height, jpeg[i + 9]
        i += 2 + length


def pdf_string(text):
    """A PDF literal string: Latin-1 text with its specials escaped."""
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return b"(" + escaped.encode("latin-1") + b")"


def parse(arguments):
    if len(arguments) == 3 and not arguments[0].startswith("-") and arguments[0].lower().endswith((".jpg", ".jpeg")):
        return arguments[1], int(arguments[2]), {}, [("image", arguments[0], None)]
    target, dpi, rest = arguments[0], int(arguments[1]), arguments[2:]
    info, pages = {}, []
    while rest:
        flag, value, rest = rest[0], rest[1], rest[2:]
        if flag == "--info":
            key, _, text = value.partition("=")
            info[key] = text
        elif flag in ("--image", "--text"):
            pages.append((flag[2:], value, None))
        elif flag == "--stamp" and pages and pages[-1][0] == "image":
            pages[-1] = (pages[-1][0], pages[-1][1], value)
        else:
            sys.exit("image-pdf.py: unknown option " + flag)
    return target, dpi, info, pages


def main():
    target, dpi, info, pages = parse(sys.argv[1:])
    # Objects 1 (catalog), 2 (pages), 3 (font), then for each page: page, contents[, image].
    objects = [None, None, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for kind, value, stamp in pages:
        page_number = len(objects) + 1
        kids.append(page_number)
        if kind == "image":
            jpeg = open(value, "rb").read()
            width, height, components = jpeg_size(jpeg)
            points = (width * 72 / dpi, height * 72 / dpi)
            image_number = page_number + 2
            objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Scan %d 0 R >> /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                           % (points[0], points[1], image_number, page_number + 1))
            drawing = b"q %.2f 0 0 %.2f 0 0 cm /Scan Do Q" % points
            if stamp:
                drawing += b" BT /F1 6 Tf 4 4 Td " + pdf_string(stamp) + b" Tj ET"
            objects.append(b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream")
            objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /%s /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n"
                           % (width, height, b"DeviceGray" if components == 1 else b"DeviceRGB", len(jpeg)) + jpeg + b"\nendstream")
        else:
            objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                           % (page_number + 1))
            lines = [b"BT /F1 12 Tf 72 720 Td 14 TL"]
            for line in value.split("\n"):
                lines.append(pdf_string(line) + b" '")
            lines.append(b"ET")
            drawing = b"\n".join(lines)
            objects.append(b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream")
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    info_number = None
    if info:
        objects.append(b"<< " + b" ".join(b"/" + key.encode("ascii") + b" " + pdf_string(text) for key, text in info.items()) + b" >>")
        info_number = len(objects)
    pdf = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        pdf += b"%010d 00000 n \n" % offset
    trailer_info = b" /Info %d 0 R" % info_number if info_number else b""
    pdf += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer_info, xref)
    open(target, "wb").write(pdf)


main()
