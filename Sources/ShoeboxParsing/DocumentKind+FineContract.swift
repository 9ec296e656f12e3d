public import ShoeboxCore
internal import ShoeboxReading

/// Telling fines and contracts from receipts and invoices, by the words they are titled and worded with.
/// Both bring deadlines (`Deadlines`), so a wrong "fine" or "contract" on a shop's receipt would be worse than a
/// missed one: the rules look at the top of the page and want a title, not a word anywhere.
extension DocumentKind {
    /// `.fine`, `.contract` or nil (the paper is neither; the parser's other rules decide what it is), from a
    /// document's lines as printed.
    public static func fineOrContract(lines: [String]) -> DocumentKind? {
        fineOrContract(folded: lines.map { TextFolding.fold($0) })
    }

    /// The same, from lines already folded (`TextFolding.fold`).
    static func fineOrContract(folded lines: [String]) -> DocumentKind? {
        if isFine(lines) { return .fine }
        if isContract(lines) { return .contract }
        return nil
    }

    /// A fine names itself near the top: "Bußgeldbescheid", "Penalty Charge Notice", "Avis de contravention",
    /// "Notis Saman". The short words that also mean other things ("amende" and "multa" are also common words,
    /// "sanción" a clause of a contract) count only at the start of one of the first lines, where a title stands.
    static func isFine(_ lines: [String]) -> Bool {
        let head = lines.prefix(FineContractRules.headLines)
        if head.contains(where: { Keywords.fineTitles.any(in: $0) || Keywords.fineCompounds.any(in: $0) }) { return true }
        return lines.prefix(FineContractRules.titleLines).contains { line in
            guard let k = Keywords.fineShortTitles.first(in: line) else { return false }
            return line.hasPrefix(k)
        }
    }

    /// A contract has a title line near the top that is a contract word ("Mietvertrag", "Service Agreement",
    /// "Contrat de location", "Perjanjian Sewa") and, somewhere, the wording of a term or a notice period.
    /// An invoice that quotes its contract ("Contract No. 4711", "Rechnung zum Vertrag") is no contract: a title
    /// holds no digits, and an invoice or credit-note word on it or above it wins.
    static func isContract(_ lines: [String]) -> Bool {
        let top = Array(lines.prefix(FineContractRules.titleLines))
        guard let title = top.firstIndex(where: isContractTitle) else { return false }
        // "Rechnung zum Wartungsvertrag": the invoice word on the title line counts too.
        let invoiceAbove = top[...title].contains {
            Keywords.invoice.any(in: $0) || Keywords.creditNote.any(in: $0)
        }
        guard !invoiceAbove else { return false }
        return lines.contains { Keywords.contractTermWording.any(in: $0) }
    }

    static func isContractTitle(_ folded: String) -> Bool {
        guard !folded.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        let words = folded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
            TextFolding.trim(String($0), ReceiptParser.tokenJunk)
        }
        guard !words.isEmpty, words.count <= FineContractRules.titleWords else { return false }
        return words.prefix(3).contains { w in
            Keywords.contractWords.contains(w)
                // German writes the kind of contract into one word: "Mietvertrag", "Mobilfunkvertrag".
                || (w.hasSuffix("vertrag") && w.count > "vertrag".count + 2)
        }
    }
}

/// Where the fine and contract rules look.
enum FineContractRules {
    /// A fine's title or its strong wording stands in the first lines (an authority's letterhead comes first).
    static let headLines = 20
    /// A title (a fine's short word, a contract's name) stands in the first few lines.
    static let titleLines = 8
    /// A title is short: "Vertrag über die Lieferung von Strom" has six words; a sentence has more.
    static let titleWords = 6
}

extension Keywords {
    /// Words that only a fine or penalty notice prints, anywhere in its first lines.
    static let fineTitles: KeywordList = [
        "penalty charge notice", "penalty notice", "fixed penalty", "parking fine", "speeding fine", "parking penalty",
        "boletin de denuncia", "notificacion de denuncia", "multa de trafico", "expediente sancionador", "sancion de trafico",
        "avis de contravention", "amende forfaitaire", "avis de paiement de l'amende", "notis saman", "saman ekor", "notis kompaun",
        "kompaun"
    ]
    /// German compounds, matched inside words: "Bußgeldbescheid", "Bußgeldstelle", "Verwarnungsgeldangebot".
    /// "ß" may fold to "ss" or stay, and OCR reads it as "B" ("BuBgeld").
    static let fineCompounds = KeywordList(
        ["bussgeld", "bußgeld", "busgeld", "bubgeld", "verwarnungsgeld"], wordBoundaries: false)
    /// Short words for a fine that also mean other things: only as the first word of a title line.
    /// ("Saman" alone is also a name: Malay fines say "Notis Saman", above.)
    static let fineShortTitles: KeywordList = ["multa", "sancion", "amende", "contravention"]
    /// A contract's own name, a whole word of its title.
    static let contractWords: Set<String> = [
        "vertrag", "contract", "agreement", "contrato", "contrat", "perjanjian", "kontrak", "convenio"
    ]
    /// How a contract speaks of its term and its notice period.
    static let contractTermWording: KeywordList = [
        "kundigungsfrist", "kundigung", "laufzeit", "vertragslaufzeit", "mindestlaufzeit", "vertragsende", "notice period",
        "period of notice", "notice", "termination", "term", "preavis", "resiliation", "duree", "plazo de preaviso", "preaviso",
        "vigencia", "duracion", "rescision", "notis", "tempoh", "penamatan", "tamat"
    ]
}
