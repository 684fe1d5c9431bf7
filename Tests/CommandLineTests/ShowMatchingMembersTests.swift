import ExtractionProtocol
@testable import SearchlightCommands
import Testing

/// `show --matching` names the members of an archive that hold the words, folded as search
/// folds them: the members a search found the archive by, in every script.
@Suite struct ShowMatchingMembersTests {
    static let members: [(name: String, text: String)] = [
        ("de/brief.txt", "Die Straße ist gesperrt."),
        ("el/σημειώσεις.txt", "Ο ΟΔΥΣΣΕΥΣ έφτασε στην Ιθάκη."),
        ("ru/ёлка.txt", "Новогодняя ёлка в парке."),
        ("tr/ISIK.txt", "Işık söndü."),
        ("ja/メモ.txt", "がっこうのしゅくだい"),
        ("ko/메모.txt", "한국어 문서입니다"),
        ("ar/ملاحظة.txt", "مُلاحَظَة عن الاجتماع"),
        ("hi/नोट.txt", "हिन्दी में लिखा गया पाठ"),
        ("th/บันทึก.txt", "ภาษาไทยไม่มีช่องว่าง"),
        ("fr/Résumé.md", "Café Société, Genève"),
        ("wide/ＡＢＣ.txt", "ﬁancé"),
    ]

    static var sections: [ArchiveText.Section] {
        let text = members.map { ArchiveText.header(for: $0.name) + $0.text + "\n" }.joined()
        return ArchiveText.sections(of: text)
    }

    /// A query and the one member it must name.
    static let cases: [(query: String, member: String)] = [
        ("strasse", "de/brief.txt"),
        ("STRASSE gesperrt", "de/brief.txt"),
        ("οδυσσευς", "el/σημειώσεις.txt"),
        ("Ιθακη", "el/σημειώσεις.txt"),
        ("σημειωσεις", "el/σημειώσεις.txt"),
        ("елка", "ru/ёлка.txt"),
        ("isik", "tr/ISIK.txt"),
        ("ışık", "tr/ISIK.txt"),
        ("かっこう", "ja/メモ.txt"),
        ("メモ", "ja/メモ.txt"),
        ("한국어", "ko/메모.txt"),
        ("ملاحظة", "ar/ملاحظة.txt"),
        ("हिन्दी", "hi/नोट.txt"),
        ("ภาษาไทย", "th/บันทึก.txt"),
        ("resume", "fr/Résumé.md"),
        ("SOCIÉTÉ geneve", "fr/Résumé.md"),
        ("abc fiance", "wide/ＡＢＣ.txt"),
    ]

    @Test(arguments: cases)
    func aQueryNamesTheMemberThatHoldsItsWords(query: String, member: String) {
        #expect(ShowCommand.members(of: Self.sections, matching: query) == [member])
    }

    @Test func wordsMustAllBeInOneMember() {
        #expect(ShowCommand.members(of: Self.sections, matching: "strasse ёлка").isEmpty)
        #expect(ShowCommand.members(of: Self.sections, matching: "zanzibar").isEmpty)
        #expect(ShowCommand.members(of: Self.sections, matching: " ,.;").isEmpty)
    }

    @Test func everyMemberHoldsTheFoldOfItsOwnText() {
        for (name, text) in Self.members {
            #expect(ShowCommand.members(of: Self.sections, matching: text).contains(name), "\(name)")
        }
    }
}
