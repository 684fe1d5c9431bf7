@testable import Embedding
import Testing

/// The tokenizer on known pieces of XLM-RoBERTa's vocabulary; its counts on 338 texts are
/// compared with the reference in ReferenceComparisonTests.
@Suite struct TokenizerTests {
    let model: EmbeddingModel

    init() throws {
        model = try EmbeddingModel.load(folder: TestModel.folder())
    }

    func pieces(_ text: String) -> [String] {
        model.tokenizer.pieces(of: text).ids.map { String(decoding: model.tokenizer.bytes(of: $0), as: UTF8.self) }
    }

    @Test func specialPieces() {
        #expect(model.tokenizer.beginning == 0)
        #expect(model.tokenizer.end == 2)
        #expect(model.tokenizer.unknown == 3)
    }

    @Test func wordsBecomeMetaspacedPieces() {
        // XLM-R has no "▁query" piece.
        #expect(pieces("query: how much room") == ["▁que", "ry", ":", "▁how", "▁much", "▁room"])
        #expect(pieces(",") == ["▁", ","])
        #expect(pieces("") == ["▁"])
    }

    /// The pieces spell the normalized text: `▁` first and for every space.
    @Test(arguments: ["The quick brown fox", "Сколько места осталось", "我的硬盘还剩多少空间", "ไดรฟ์ของฉัน",
                      "כמה מקום נשאר", "मेरी ड्राइव पर", "새 폴더 만들기", "naïve café"])
    func piecesSpellTheText(_ text: String) {
        let spelled = pieces(text).joined()
        #expect(spelled == "▁" + text.replacingSpaces())
        #expect(!model.tokenizer.pieces(of: text).ids.contains(model.tokenizer.unknown))
    }

    @Test func normalizationFoldsCompatibilityForms() {
        #expect(pieces("ﬁnance") == pieces("finance"))
        #expect(pieces("Ｆｕｌｌ") == pieces("Full"))
        #expect(pieces("a\t\t b\nc") == pieces("a b c"))
        #expect(pieces("zero\u{200B}width") == pieces("zero width"))
        #expect(pieces("bell\u{07}") == pieces("bell"))
    }

    @Test func aCharacterNoPieceCoversIsUnknown() {
        // U+13000 (an Egyptian hieroglyph): no piece and no normalization covers it.
        let ids = model.tokenizer.pieces(of: "a \u{13000} b").ids
        #expect(ids.filter { $0 == model.tokenizer.unknown }.count == 1)
    }

    @Test func piecesStartAtTheirScalars() {
        let text = "hello wide world"
        let pieces = model.tokenizer.pieces(of: text)
        let scalars = Array(text.unicodeScalars)
        // "▁world" starts at the space before "world".
        #expect(pieces.scalarStarts.last.map { scalars[$0] } == " ")
        #expect(pieces.scalarStarts.first == 0)
    }

    @Test func tokenCountIncludesPrefixAndSpecials() {
        #expect(model.tokenCount("hello") == pieces("passage: hello").count + 2)
        #expect(pieces("passage: hello").joined() == "▁passage:▁hello")
    }
}

extension String {
    func replacingSpaces() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == " " ? "▁" : $0 }))
    }
}
