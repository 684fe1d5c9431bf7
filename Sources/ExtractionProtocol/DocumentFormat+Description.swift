extension DocumentFormat {
    /// The format of a file from libmagic's MIME type, libmagic's description and the file's
    /// name: ``init(contentType:fileName:)``'s, else, when the description says the bytes are
    /// text (``describesText(_:)``), the format of a `text/plain` file of that name.
    ///
    /// - Parameters:
    ///   - contentType: libmagic's MIME type, such as `application/x-subrip`.
    ///   - fileName: the last component of the file's path, as bytes.
    ///   - description: libmagic's description, such as `SubRip, ISO-8859 text`, when known.
    public init?(contentType: String, fileName: some BidirectionalCollection<UInt8>, description: String?) {
        guard let type = Self.readableType(contentType: contentType, fileName: fileName, description: description) else {
            return nil
        }
        self.init(contentType: type, fileName: fileName)
    }

    /// The MIME type to send a worker so that it reads the file in the format the indexer chose:
    /// `contentType` when that type has a format, `text/plain` when only libmagic's description
    /// says the file is text (the worker sees no description); nil when the file has no text
    /// to read, so that it costs no round trip.
    ///
    /// ```swift
    /// DocumentFormat.readableType(contentType: "application/x-kdelnk", fileName: Array("app.desktop".utf8),
    ///                             description: "KDE desktop entry, ASCII text")  // "text/plain"
    /// ```
    public static func readableType(
        contentType: String, fileName: some BidirectionalCollection<UInt8>, description: String?
    ) -> String? {
        if DocumentFormat(contentType: contentType, fileName: fileName) != nil { return contentType }
        guard let description, describesText(description), !isDrawnOrPlayed(contentType) else { return nil }
        return "text/plain"
    }

    /// Whether libmagic's description gives its verdict that the bytes are text: one of its
    /// comma-separated parts names an encoding and ends in `text` (or `text executable`) —
    /// `ASCII text`, `ISO-8859 text`, `Non-ISO extended-ASCII text`, `Unicode text`,
    /// `UTF-8 (with BOM) text`, `UTF-8 Unicode text` (libmagic before 5.40), `ASCII text
    /// executable` — as in `SubRip, ISO-8859 text` or `KDE desktop entry, ASCII text`.
    ///
    /// libmagic adds that verdict only after checking every byte it read is text. A format that
    /// only calls itself text (`PostScript document text conforming DSC level 3.0`,
    /// `X pixmap image text`, `Windows Registry text`) does not count: its type says what it is.
    public static func describesText(_ description: String) -> Bool {
        TypeEvidence.kind(of: description).split(separator: ",").contains { part in
            var words = part.split(separator: " ")
            if words.last == "executable" { words.removeLast() }
            guard words.count >= 2, words.last == "text" else { return false }
            return words.dropLast().contains { textEncodings.contains($0) }
        }
    }

    /// The words of libmagic's encodings (`file_encoding`) in its descriptions of text.
    static let textEncodings: Set<Substring> = [
        "ASCII", "extended-ASCII", "ISO-8859", "EBCDIC", "Unicode", "UTF-7", "UTF-8", "UTF-16", "UTF-32",
    ]

    /// Pictures, sounds, films, fonts, models and page descriptions that libmagic may also find
    /// written in text (an XPM image, a plain PPM, a PostScript program): their text is pixels,
    /// samples or drawing operators, not words to read.
    static func isDrawnOrPlayed(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return ["image/", "audio/", "video/", "font/", "model/"].contains { type.hasPrefix($0) }
            || type == "application/postscript"
    }
}
