#!/usr/bin/env bash
# Remakes the fixtures of DocumentExtractionTests from the texts in Sources/. Not run by CI:
# the results are committed. Needs Debian's libreoffice-writer, -calc and -impress, pandoc,
# qpdf, libimage-exiftool-perl, libvips-tools, and Python with msoffcrypto-tool and
# cryptography (a virtual environment: python3 -m venv V && V/bin/pip install msoffcrypto-tool).
# Usage: make-fixtures.sh PYTHON_WITH_THOSE_PACKAGES
set -euo pipefail
python=${1:?usage: make-fixtures.sh PYTHON}
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home"   # LibreOffice's profile, thrown away

convert() { soffice --headless --convert-to "$1" --outdir "$work" "$2" >/dev/null; }
for format in odt docx doc rtf pdf; do convert "$format" Sources/report.fodt; done
for format in ods xlsx xls; do convert "$format" Sources/ledger.fods; done
for format in odp pptx ppt; do convert "$format" Sources/talk.fodp; done
pandoc Sources/voyage.md -o "$work/voyage.epub"
cp "$work"/report.* "$work"/ledger.* "$work"/talk.* "$work"/voyage.epub .

# Photos: the thumbnail fixture with EXIF written by exiftool; rotated.jpg is stored
# 400×300 with Orientation 6 (shown turned 90° clockwise, 300×400).
cp ../../SearchlightFilesTests/Fixtures/photo.jpg camera.jpg
exiftool -q -overwrite_original -Make="Fujifilm" -Model="X-T30" \
  -DateTimeOriginal="2023:08:15 18:42:07" -OffsetTimeOriginal="+02:00" \
  -ImageDescription="Sunset over Lake Bled" -Artist="Marta Kovač" \
  -GPSLatitude=46.3636 -GPSLatitudeRef=N -GPSLongitude=14.0938 -GPSLongitudeRef=E camera.jpg
cp ../../SearchlightFilesTests/Fixtures/photo.jpg rotated.jpg
exiftool -q -overwrite_original -Orientation#=6 -Make=Canon -Model="Canon EOS 80D" \
  -DateTimeOriginal="2016:01:30 07:05:00" \
  -GPSLatitude=33.8688 -GPSLatitudeRef=S -GPSLongitude=151.2093 -GPSLongitudeRef=E rotated.jpg

# Password-protected documents (the password is tern-secret).
qpdf --encrypt tern-secret owner-secret 256 -- report.pdf encrypted.pdf
"$python" -m msoffcrypto -e -p tern-secret report.docx encrypted.docx
# Zip bombs, billion laughs, a truncated DOCX, an encrypted ODT.
"$python" make-hostile.py
