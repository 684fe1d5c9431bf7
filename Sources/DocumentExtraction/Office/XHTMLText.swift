import ExtractionProtocol

/// The visible text of an XHTML document (an EPUB chapter): text nodes inside `body`, without
/// `script` and `style`, with a break after each block element.
enum XHTMLText {
    private static let blocks: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "br", "blockquote", "pre",
        "section", "article", "header", "footer", "dt", "dd", "figcaption", "table", "hr",
    ]

    static func read(_ bytes: [UInt8], name: String, into text: inout TextCollector) throws(ExtractionFailure) {
        // Chapters use HTML's entities (`&nbsp;`) without declaring them, and a damaged one is
        // read up to its damage: the reader recovers.
        let reader = try XMLReader(bytes, name: name, recover: true)
        var inBody = false
        var skipDepth: Int?
        while !text.isFull {
            let more: Bool
            do {
                more = try reader.read()
            } catch {
                // What was read before the damage is kept.
                break
            }
            guard more else { break }
            switch reader.kind {
            case .element:
                let local = reader.localName
                if local == "body" { inBody = true }
                if skipDepth == nil, local == "script" || local == "style", !reader.isEmptyElement { skipDepth = reader.depth }
                if blocks.contains(local) { text.appendBreak() }
            case .endElement:
                let local = reader.localName
                if skipDepth == reader.depth { skipDepth = nil }
                if blocks.contains(local) { text.appendBreak() }
                if local == "td" || local == "th" { text.appendSpace() }
            case .text, .whitespace:
                if inBody, skipDepth == nil { text.appendCollapsingWhitespace(reader.value) }
            case .other:
                if inBody, skipDepth == nil, let character = reader.htmlCharacter { text.appendCollapsingWhitespace(character) }
            }
        }
    }
}
