#!/usr/bin/env python3
"""Writes the hostile fixtures of DocumentExtractionTests from report.docx and report.odt.

Run from the Fixtures folder (make-fixtures.sh does). Needs only Python's standard library,
except encrypted.odt, which needs the `cryptography` package (AES, as ODF 1.2 encrypts).
"""
import hashlib, os, struct, sys, zipfile, zlib

def parts(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]

docx = parts("report.docx")

def write_docx(name, document_xml=None, document_chunks=None):
    with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for part, data in docx:
            if part == "word/document.xml":
                if document_chunks is not None:
                    with out.open(part, "w", force_zip64=False) as stream:
                        for chunk in document_chunks():
                            stream.write(chunk)
                else:
                    out.writestr(part, document_xml)
            else:
                out.writestr(part, data)

head = b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>'
tail = b'</w:t></w:r></w:p></w:body></w:document>'

def padded(total):
    def chunks():
        yield head
        block = b" " * (1 << 20)
        for _ in range(total >> 20):
            yield block
        yield tail
    return chunks

# An honest zip bomb: its header says 200 MiB, compressed about 1000 times.
write_docx("bomb.docx", document_chunks=padded(200 << 20))

# A lying one: 100 MiB inside, but both headers say 2 000 bytes.
write_docx("bomb-lying.docx", document_chunks=padded(100 << 20))
data = bytearray(open("bomb-lying.docx", "rb").read())

def patch_size(signature, name_length_at, name_at, size_at, name, size):
    """Sets the uncompressed size of every header (local or central) naming `name`."""
    offset = 0
    while (header := data.find(signature, offset)) >= 0:
        name_length = struct.unpack_from("<H", data, header + name_length_at)[0]
        if data[header + name_at:header + name_at + name_length] == name:
            struct.pack_into("<I", data, header + size_at, size)
        offset = header + 4

patch_size(b"PK\x03\x04", 26, 30, 22, b"word/document.xml", 2000)
patch_size(b"PK\x01\x02", 28, 46, 24, b"word/document.xml", 2000)
open("bomb-lying.docx", "wb").write(data)

# Billion laughs: ten levels of ten references, used inside a run of text.
entities = '<!ENTITY lol0 "lol">' + "".join(
    '<!ENTITY lol%d "%s">' % (level, ("&lol%d;" % (level - 1)) * 10) for level in range(1, 10))
laughs = ('<?xml version="1.0"?><!DOCTYPE w:document [%s]>' % entities).encode() + head + b"Laughing &lol9; out loud" + tail
write_docx("laughs.docx", document_xml=laughs)

# A DOCX cut in the middle (no central directory).
whole = open("report.docx", "rb").read()
open("truncated.docx", "wb").write(whole[: len(whole) * 6 // 10])

# An ODT encrypted as ODF 1.2 does: deflate, then AES-256-CBC with a PBKDF2 key from the
# SHA-256 of the password; the manifest describes it.
try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives import padding
except ImportError:
    sys.exit("encrypted.odt needs the cryptography package")
import base64
password = b"tern-secret"
start_key = hashlib.sha256(password).digest()
entries = []
with zipfile.ZipFile("report.odt") as source, zipfile.ZipFile("encrypted.odt", "w") as out:
    out.writestr(zipfile.ZipInfo("mimetype"), source.read("mimetype"))
    manifest_entries = []
    for info in source.infolist():
        if info.filename in ("mimetype", "META-INF/manifest.xml"):
            continue
        data = source.read(info.filename)
        if info.filename.endswith(".xml"):
            salt, iv = os.urandom(16), os.urandom(16)
            key = hashlib.pbkdf2_hmac("sha1", start_key, salt, 100000, 32)
            compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
            deflated = compressor.compress(data) + compressor.flush()
            padder = padding.PKCS7(128).padder()
            encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
            encrypted = encryptor.update(padder.update(deflated) + padder.finalize()) + encryptor.finalize()
            checksum = hashlib.sha256(deflated[:1024]).digest()
            out.writestr(zipfile.ZipInfo(info.filename), encrypted)
            manifest_entries.append(
                ' <manifest:file-entry manifest:full-path="%s" manifest:media-type="text/xml" manifest:size="%d">\n'
                '  <manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="%s">\n'
                '   <manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="%s"/>\n'
                '   <manifest:start-key-generation manifest:start-key-generation-name="http://www.w3.org/2000/09/xmldsig#sha256" manifest:key-size="32"/>\n'
                '   <manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="%s"/>\n'
                '  </manifest:encryption-data>\n </manifest:file-entry>\n'
                % (info.filename, len(data), base64.b64encode(checksum).decode(), base64.b64encode(iv).decode(), base64.b64encode(salt).decode()))
        else:
            out.writestr(info, data)
    out.writestr("META-INF/manifest.xml",
        '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">\n'
        ' <manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="application/vnd.oasis.opendocument.text"/>\n'
        + "".join(manifest_entries) + "</manifest:manifest>\n", zipfile.ZIP_DEFLATED)
