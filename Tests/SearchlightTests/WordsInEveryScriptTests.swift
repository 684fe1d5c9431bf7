import Foundation
import SearchlightPostgres
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Short texts in many scripts, written for these tests. Each line is `id|text`.
private let documents: [(id: String, text: String)] = [
    ("fr", "Le cœur a ses raisons que la raison ne connaît point. Élève, façade, naïveté."),
    ("de", "Die Straße führt über die Brücke nach Köln; Größe und Übermut."),
    ("vi", "Tiếng Việt có nhiều dấu thanh điệu khác nhau."),
    ("pl", "Zażółć gęślą jaźń, powiedział źrebak w Łodzi."),
    ("tr", "Işık İstanbul'da güzel; çiçekler ağaçta."),
    ("no", "Ålesund er en by på Sunnmøre."),
    ("el", "Ο ενάρετος άνθρωπος ζει ήσυχα στην Αθήνα και διαβάζει βιβλία."),
    ("ru", "Новогодняя ёлка стоит в зале, йогурт в холодильнике, всё хорошо."),
    ("uk", "Київ — столиця України; їжак і ґава живуть у лісі."),
    ("ko", "대한민국의 수도는 서울입니다. 한국어 문서를 검색합니다."),
    ("ja", "ごはんを食べました。がっこうでパソコンを使います。東京都庁の写真。"),
    ("zh", "我们在北京大学学习中文，图书馆里有很多书。"),
    ("th", "ภาษาไทยเป็นภาษาที่สวยงาม ฉันชอบกินข้าวผัด"),
    ("lo", "ພາສາລາວເປັນພາສາທີ່ງາມ"),
    ("km", "ភាសាខ្មែរគឺជាភាសាជាតិ"),
    ("my", "မြန်မာဘာသာစကားကို ပြောသည်"),
    ("hi", "हिन्दी भारत की राजभाषा है। पुस्तकालय में किताबें हैं।"),
    ("bn", "বাংলা ভাষা খুব সুন্দর। আমি বই পড়তে ভালোবাসি।"),
    ("ta", "தமிழ் மொழி மிகவும் பழமையானது. நூலகம் திறந்துள்ளது."),
    ("ar", "اللُّغَةُ العَرَبِيَّةُ جميلة، والمكتبة مفتوحة اليوم."),
    ("he", "שָׁלוֹם עוֹלָם, הספרייה פתוחה היום."),
    ("ka", "ქართული ენა ძალიან ლამაზია."),
    ("hy", "Հայերենը գեղեցիկ լեզու է։"),
    ("am", "አማርኛ ቋንቋ በኢትዮጵያ ይነገራል።"),
    ("si", "සිංහල භාෂාව ලස්සනයි."),
    ("bo", "བོད་ཡིག་ནི་སྐད་ཡིག་ཡིན།"),
]

/// Query words per document: the words between spaces and punctuation of spaced scripts, and
/// chosen words of the unspaced ones.
private let unspacedWords: [String: [String]] = [
    "ja": ["ごはん", "食べ", "がっこう", "パソコン", "東京都", "都庁", "写真"],
    "zh": ["北京", "大学", "中文", "图书馆"],
    "th": ["ภาษาไทย", "สวยงาม", "ข้าวผัด", "กิน"],
    "lo": ["ພາສາລາວ", "ງາມ"],
    "km": ["ភាសាខ្មែរ", "ជាតិ"],
    "my": ["မြန်မာ", "ပြောသည်"],
]

private func queryWords(of document: (id: String, text: String)) -> [String] {
    if let words = unspacedWords[document.id] { return words }
    return document.text.split { !($0.isLetter || $0.isNumber || $0.unicodeScalars.allSatisfy { $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark }) }
        .map(String.init).filter { !$0.isEmpty }
}

/// What a person typing without marks types: NFD, nonspacing marks left out.
private func withoutMarks(_ word: String) -> String {
    String(String.UnicodeScalarView(word.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
        $0.properties.generalCategory != .nonspacingMark
    }))
}

private func items() -> [SearchableItem] {
    documents.map { document in
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = "doc-\(document.id).txt"
        attributes.textContent = document.text
        return SearchableItem(uniqueIdentifier: ItemIdentifier("doc-\(document.id).txt"), domainIdentifier: "docs",
                              attributeSet: attributes, identifierIsPath: true)
    }
}

@Suite("Words in every script", .ownThread)
struct WordsInEveryScriptTests {
    @Test func foldingIsCaseAndDiacriticInsensitiveInEveryScript() {
        let fold = WordFolding.fold
        #expect(fold("ενάρετος") == fold("εναρετος"))
        #expect(fold("ΕΝΆΡΕΤΟΣ") == fold("ενάρετος"))
        #expect(fold("λόγος") == fold("ΛΟΓΟΣ"))
        #expect(fold("ёлка") == fold("елка"))
        #expect(fold("йогурт") == fold("иогурт"))
        #expect(fold("їжак") == fold("іжак"))
        #expect(fold("Ålesund") == "alesund")
        #expect(fold("Straße") == "strasse")
        #expect(fold("ＰＤＦ") == "pdf")
        #expect(fold("ﬁle") == "file")
        // Composed or decomposed, the same.
        #expect(fold("e\u{301}le\u{300}ve") == fold("élève"))
        #expect(fold("\u{1100}\u{1161}\u{11A8}") == "각")
        // Hangul syllables stay whole, Indic spacing vowel signs stay in their word.
        #expect(fold("서울입니다") == "서울입니다")
        #expect(fold("राजभाषा") == "राजभाषा")
        #expect(fold("が") == fold("か"))
        // Invisible characters inside a word go.
        #expect(fold("Ge\u{AD}sund\u{200D}heit") == "gesundheit")
    }

    @Test func foldingIsIdempotentAndAQueryWordIsAlwaysOneIndexWord() {
        var random = SeededRandom(seed: 31)
        for _ in 0..<3_000 {
            let text = random.unicodeString(length: 1 + random.next(12))
            let folded = WordFolding.fold(text)
            #expect(WordFolding.fold(folded) == folded, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            var folder = RunFolder()
            for word in NameTokenizer.words(in: text) {
                // Each part the text index would look up is exactly one token of the tokenizer.
                for part in ContentWords.tokens(of: word) {
                    #expect(folder.tokens(of: part) == [part], "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
                }
            }
        }
    }

    @Test func bytesThatAreNotUTF8SeparateWords() {
        let bytes: [UInt8] = [0x61, 0x62, 0xED, 0xA0, 0x80, 0x63, 0xFF, 0xC3, 0xA9, 0xC3]
        var runs: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            WordRuns.forEach(in: buffer) { run, _ in runs.append(run); return true }
        }
        #expect(runs == [0..<2, 5..<6, 7..<9])
    }

    @Test(arguments: IndexBackend.available) func aWordFromInsideADocumentFindsItInEveryScript(_ backend: IndexBackend) async throws {
        let search = try await Self.searcher(backend, items: items())
        var misses: [String] = []
        for document in documents {
            for word in queryWords(of: document) {
                for typed in Set([word, withoutMarks(word), word.uppercased()]) where !NameTokenizer.words(in: typed).isEmpty {
                    if try await !search(typed).contains("doc-\(document.id).txt") { misses.append("\(document.id): \(typed)") }
                }
            }
        }
        #expect(misses.isEmpty, "\(misses)")
    }

    @Test(arguments: IndexBackend.available) func noQueryOfAnyScriptFails(_ backend: IndexBackend) async throws {
        let search = try await Self.searcher(backend, items: items())
        var random = SeededRandom(seed: backend == .sqlite ? 7 : 8)
        let count = backend == .sqlite ? 2_000 : 300
        for round in 0..<count {
            let text = round.isMultiple(of: 3) ? random.sequenceString() : random.unicodeString(length: 1 + random.next(8))
            do {
                _ = try await search(text)
            } catch {
                Issue.record("\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(error)")
            }
        }
    }

    /// An index written before v9 (FTS5's `unicode61` over the text) is upgraded by itself: its
    /// word tables are made again from what it stores, and its Greek, Korean and Hindi words,
    /// which `unicode61` split or kept marked, are found.
    @Test func anOlderIndexIsUpgradedFromWhatItStores() throws {
        let path = TestScratch.path("v8")
        try writeOlderIndex(at: path, upTo: "v8-derived-names", """
            INSERT INTO domain(id, name) VALUES (1, 'docs');
            INSERT INTO content_kind(id, contentType, digest) VALUES (1, 'text/plain', 0);
            INSERT INTO item(id, domainId, identifier, storedName, kindId, derived, modificationDate)
                VALUES (1, 1, CAST('Ενάρετος.txt' AS BLOB), 'Ενάρετος.txt', 1, 4, 1000),
                       (2, 1, CAST('b.txt' AS BLOB), 'b.txt', 1, 4, 2000);
            INSERT INTO item_text(itemId, authors, text)
                VALUES (1, 'Ζωή', searchlight_compress('서울입니다 हिन्दी राजभाषा')),
                       (2, NULL, searchlight_compress('Ο ενάρετος άνθρωπος'));
            """)
        let index = try SearchableIndex(path: path)
        func found(_ word: String) throws -> [String] {
            try index.search(words: [word]).map(\.item.uniqueIdentifier.lossyString).sorted()
        }
        #expect(try found("εναρετος") == ["b.txt", "Ενάρετος.txt"])
        #expect(try found("서울입니다") == ["Ενάρετος.txt"])
        #expect(try found("राजभाषा") == ["Ενάρετος.txt"])
        #expect(try found("ζωη") == ["Ενάρετος.txt"])
        try index.checkFullTextIntegrity()
        try index.deleteAllItems()
        #expect(try found("ανθρωπος").isEmpty)
        try index.checkFullTextIntegrity()
    }

    /// A search function over a new index of `backend` holding `items`: typed text → the
    /// identifiers found, by `search` and (checked to agree on being able to run) `query`.
    static func searcher(_ backend: IndexBackend, items: [SearchableItem]) async throws -> (String) async throws -> [String] {
        switch backend {
        case .sqlite:
            let index = try SearchableIndex(path: TestScratch.path("scripts"))
            try index.indexItems(items)
            return { text in
                let words = try SearchWords(parsing: text).words
                _ = try index.countMatches(words: words)
                _ = try index.query("textContent == \(SearchWords.quoted(text))cdw || displayName == \(SearchWords.quoted(text, prefix: true, suffix: true))cd")
                return try index.searchResults(words: words).map(\.item.item.uniqueIdentifier.lossyString)
            }
        case .postgres:
            let (index, _) = try await PostgresTestDatabase.makeIndex()
            try await index.indexItems(items)
            return { text in
                let words = try SearchWords(parsing: text).words
                _ = try await index.countMatches(words: words)
                _ = try await index.query("textContent == \(SearchWords.quoted(text))cdw || displayName == \(SearchWords.quoted(text, prefix: true, suffix: true))cd")
                return try await index.search(words: words).map(\.item.uniqueIdentifier.lossyString)
            }
        }
    }
}

/// A small deterministic generator (SplitMix64) of Unicode test strings.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    /// Scalars from anywhere: every block of the BMP and the supplementary planes, marks,
    /// joiners, bidi controls, private use, noncharacters; ASCII punctuation and query syntax.
    mutating func unicodeString(length: Int) -> String {
        var scalars = String.UnicodeScalarView()
        let special: [UInt32] = [0x22, 0x2A, 0x5C, 0x27, 0x28, 0x29, 0x3A, 0x2D, 0x5E, 0x200B, 0x200C, 0x200D,
                                 0x200E, 0x202E, 0x2066, 0xFEFF, 0xAD, 0x301, 0x3099, 0x94D, 0xE48, 0xFE0F, 0xFFFD, 0xFFFF]
        for _ in 0..<length {
            let value: UInt32
            switch next(6) {
            case 0: value = special[next(special.count)]
            case 1: value = UInt32(0x20 + next(0x5F))
            case 2: value = UInt32(0x300 + next(0x2000))
            case 3: value = UInt32(0x1F000 + next(0x1000))
            case 4: value = UInt32(next(0x110000))
            default: value = UInt32(next(0x10000))
            }
            if let scalar = Unicode.Scalar(value), value != 0 { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// Sequences people meet: emoji with joiners and skin tones, flags, a letter under many
    /// marks, bidi-wrapped words, a Hangul syllable in jamo.
    mutating func sequenceString() -> String {
        let pieces = ["👩\u{200D}👩\u{200D}👧", "👍🏽", "🇬🇷", "a\u{301}\u{302}\u{303}\u{304}", "\u{202B}שלום\u{202C}",
                      "\u{1112}\u{1161}\u{11AB}", "क्षि", "\u{E01}\u{E34}\u{E48}", "Z\u{351}\u{35B}\u{36F}", "\"", "*", "NEAR(", "\\"]
        return (0..<(1 + next(4))).map { _ in pieces[next(pieces.count)] }.joined(separator: next(2) == 0 ? " " : "")
    }
}
