import ShoeboxCore
internal import ShoeboxReading

/// Currency: from symbols and codes written on the page (next to amounts or on their own), else inferred
/// from country hints (legal forms, tax names, place names) and the language, and marked as inferred.
extension ReceiptParser {
    /// A bare "$" names no country: it is resolved by the country hints, else read as USD.
    static let dollar = "$"

    /// How often a currency is written on the page, where first, whether every writing is doubtful, and whether every
    /// writing stands on its own (no amount beside it).
    typealias CurrencyMarks = (count: Int, evidence: Evidence, doubtful: Bool, standalone: Bool)

    func currencyCandidates(_ lines: [Line], language: String?) -> [CurrencyCandidate] {
        typealias Marks = CurrencyMarks
        let (counts, dollarLines) = ReceiptParser.currencyMarks(lines)
        let hints = ReceiptParser.countryHints(lines, language: language)
        // A mark the page's country hints agree with is surer than a stray one ("Doc No. : €800013033", a "C"
        // misread, on a Malaysian slip that prints "(RM)" as often).
        let local = hints.first?.currency
        // One mark on its own that OCR itself doubts, against the page's country hints, is as likely a misread
        // (sparse reading turns a speck or a logo into "_ £ ies", every word at confidence 0) as a currency: it
        // scores below what the hints infer. A mark by an amount, or read with confidence, is not.
        // On a page its hints place in one country (`placed(by:)`), one mark of another currency on its own, by no
        // amount, is as likely a misread ("£." for a speck, "€" for a logo) however surely OCR read it.
        let placed = ReceiptParser.placed(by: hints)
        func stray(_ code: String, _ entry: Marks) -> Bool {
            entry.count == 1 && (entry.doubtful || (placed && entry.standalone)) && local != nil && code != local
        }
        var out = counts.sorted { ($0.value.count, $0.key == local ? 1 : 0, $0.key) > ($1.value.count, $1.key == local ? 1 : 0, $1.key) }.map {
            entry in
            stray(entry.key, entry.value)
                ? CurrencyCandidate(
                    value: entry.key, role: .explicit, score: CurrencyWeights.strayMark, evidence: entry.value.evidence,
                    notes: [
                        "written once, " + (entry.value.doubtful ? "doubtfully read, " : "") + "against the country hints (\(local ?? ""))"
                    ])
                : CurrencyCandidate(
                    value: entry.key, role: .explicit,
                    score: min(
                        CurrencyWeights.writtenCap,
                        CurrencyWeights.written + CurrencyWeights.perWriting * Double(entry.value.count)
                            + (entry.key == local ? CurrencyWeights.countryAgrees : 0)),
                    evidence: entry.value.evidence, notes: ["written \(entry.value.count)×"] + (entry.key == local ? ["the country's currency"] : []))
        }
        if let dollar = ReceiptParser.dollarCurrency(dollarLines, hints: hints, nothingWritten: out.isEmpty) { out.append(dollar) }
        // Nothing written but stray marks (or nothing at all): the country's currency, inferred.
        if dollarLines.isEmpty, counts.allSatisfy({ stray($0.key, $0.value) }), let country = hints.first {
            out.append(
                CurrencyCandidate(
                    value: country.currency, role: .inferred,
                    score: min(
                        CurrencyWeights.inferredFromCountryCap,
                        CurrencyWeights.inferredFromCountry + CurrencyWeights.perCountryHint * Double(country.weight)),
                    evidence: nil, checks: placed && out.isEmpty ? [.fromCountry, .placedByCountry] : [.fromCountry],
                    notes: [
                        (out.isEmpty ? "no currency on the page" : "only a stray mark on the page")
                            + (placed && out.isEmpty ? "; the page is placed by " : "; inferred from ")
                            + country.notes.joined(separator: ", ")
                    ]))
        }
        if out.isEmpty, let inferred = ReceiptParser.currency(forLanguage: language) {
            out.append(
                CurrencyCandidate(
                    value: inferred, role: .inferred, score: CurrencyWeights.inferredFromLanguage, evidence: nil,
                    notes: ["no currency on the page; inferred from language \(language ?? "?")"]))
        }
        return out.sorted { $0.score > $1.score }
    }

    /// A bare "$" on the page: the local dollar the country hints name (the ringgit on a receipt from Malaysia),
    /// else the US dollar; nil without one.
    static func dollarCurrency(_ dollarLines: [Line], hints: [CountryGuess], nothingWritten: Bool) -> CurrencyCandidate? {
        guard let first = dollarLines.first else { return nil }
        if let country = hints.first, country.currency != "USD", ReceiptParser.dollarCountries.contains(country.currency) || nothingWritten {
            return CurrencyCandidate(
                value: country.currency, role: .inferred, score: CurrencyWeights.localDollar, evidence: first.evidence,
                checks: placed(by: hints) ? [.fromCountry, .placedByCountry] : [.fromCountry],
                notes: ["'$' with \(country.notes.joined(separator: ", "))"])
        }
        return CurrencyCandidate(
            value: "USD", role: nothingWritten ? .explicit : .inferred,
            score: nothingWritten ? CurrencyWeights.usDollarAlone : CurrencyWeights.usDollarBesideOthers,
            evidence: first.evidence, notes: ["'$' written \(dollarLines.count)×"])
    }

    /// The currencies written on the page (by amounts, or on their own), and the lines with a bare "$".
    static func currencyMarks(_ lines: [Line]) -> (counts: [String: CurrencyMarks], dollarLines: [Line]) {
        var counts: [String: CurrencyMarks] = [:]
        func add(_ code: String, _ line: Line, doubtful: Bool, standalone: Bool) {
            counts[code] = (
                (counts[code]?.count ?? 0) + 1, counts[code]?.evidence ?? line.evidence, (counts[code]?.doubtful ?? true) && doubtful,
                (counts[code]?.standalone ?? true) && standalone
            )
        }
        var dollarLines: [Line] = []
        for line in lines {
            for f in line.amounts {
                guard let hint = f.reading.currencyHint else { continue }
                if hint == "USD" && !TextFolding.containsSubstring(line.text, "US$") && !TextFolding.containsSubstring(line.folded, "usd") {
                    dollarLines.append(line)
                } else {
                    add(hint, line, doubtful: false, standalone: false)
                }
            }
            // Codes and symbols on their own: "Währung: EUR", "Total € Incl. VAT", "Amount (RM)".
            for mark in ReceiptParser.standaloneKeywords.all(in: line.folded) {
                // OCR's own confidence in the word that prints the mark (a text layer's is 100).
                let confidence = line.line.words.filter { TextFolding.containsSubstring(TextFolding.fold($0.text), mark) }.map(\.confidence).max()
                add(
                    ReceiptParser.standaloneCode[mark]!, line, doubtful: (confidence ?? 100) < ReceiptParser.doubtfulMarkConfidence, standalone: true)
            }
        }
        return (counts, dollarLines)
    }

    /// OCR confidence below which a currency mark on its own is doubtful: a misread "£" on a page that prints
    /// "RM" often reads below it, the real mark rarely (and then the country hints agree with it anyway).
    static let doubtfulMarkConfidence = 40.0

    /// Currencies a "$" may stand for on a receipt (local usage), besides the US dollar.
    static let dollarCountries: Set<String> = ["MYR", "SGD", "AUD", "CAD", "NZD", "HKD"]

    static let standaloneMarks: [(String, String)] = [
        ("eur", "EUR"), ("euro", "EUR"), ("€", "EUR"), ("gbp", "GBP"), ("£", "GBP"), ("myr", "MYR"), ("rm", "MYR"),
        ("ringgit", "MYR"), ("chf", "CHF"), ("usd", "USD"), ("sgd", "SGD")
    ]

    static let standaloneKeywords = KeywordList(standaloneMarks.map(\.0))
    static let standaloneCode = Dictionary(standaloneMarks, uniquingKeysWith: { a, _ in a })

    /// What a country hint is: two hints of different kinds place a page more surely than two of one kind (a street
    /// and a town name both say "place", and "Jalan" is as Indonesian as Malaysian).
    enum CountryHintKind: Hashable, Sendable {
        case legalForm, tax, place, phone
    }

    struct CountryGuess {
        let currency: String
        let weight: Int
        let notes: [String]
        /// The kinds of hint that name this country.
        var kinds: Set<CountryHintKind> = []
    }

    /// Country hints on the page, strongest first: legal forms, tax names, place words, a country's calling code; on a
    /// German page also a five-digit postcode before a town ("10115 Berlin": Austria and Switzerland have four digits).
    static func countryHints(_ lines: [Line], language: String? = nil) -> [CountryGuess] {
        var guesses: [String: CountryGuess] = [:]
        func add(_ word: String, _ currency: String, _ kind: CountryHintKind) {
            let entry = guesses[currency] ?? CountryGuess(currency: currency, weight: 0, notes: [])
            let notes = entry.notes.count < 3 && !entry.notes.contains("'\(word)'") ? entry.notes + ["'\(word)'"] : entry.notes
            guesses[currency] = CountryGuess(currency: currency, weight: entry.weight + 1, notes: notes, kinds: entry.kinds.union([kind]))
        }
        for line in lines {
            for word in countryKeywords.all(in: line.folded) {
                let (currency, kind) = countryCurrency[word]!
                // A calling code counts on a line that says it prints a number to call ("+49,90" is an amount).
                if kind == .phone && !Keywords.phone.any(in: line.folded) { continue }
                add(word, currency, kind)
            }
            if language == "deu", let postcode = germanPostcodeAndTown(line.folded) { add(postcode, "EUR", .place) }
        }
        return guesses.values.sorted { ($0.weight, $0.currency) > ($1.weight, $1.currency) }
    }

    /// "10115 berlin" in a folded line: five digits on their own, a space, then a word of three letters or more.
    static func germanPostcodeAndTown(_ folded: String) -> String? {
        let b = Array(folded.utf8)
        func isDigit(_ k: Int) -> Bool { k >= 0 && k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        var i = 0
        while i + 5 < b.count {
            // Five digits, nothing glued before them, a space after.
            if (i == 0 || !(isDigit(i - 1) || TextFolding.isLetterByte(b[i - 1]))) && (i..<(i + 5)).allSatisfy(isDigit) && b[i + 5] == 0x20 {
                var j = i + 6
                while j < b.count && TextFolding.isLetterByte(b[j]) { j += 1 }
                if j - (i + 6) >= 3 { return String(decoding: b[i..<j], as: UTF8.self) }
            }
            i += 1
        }
        return nil
    }

    /// Whether the hints place the page in their first country: hints of two kinds or more, and none for another
    /// country. Then a currency the page does not print is that country's from evidence, not a guess.
    static func placed(by hints: [CountryGuess]) -> Bool {
        hints.count == 1 && hints[0].kinds.count >= 2
    }

    /// Words that place a receipt in a country, that country's currency, and the kind of hint each is.
    static let countryWords: [(String, String, CountryHintKind)] = [
        ("sdn bhd", "MYR", .legalForm), ("sdn. bhd", "MYR", .legalForm), ("bhd", "MYR", .legalForm), ("berhad", "MYR", .legalForm),
        ("malaysia", "MYR", .place), ("jalan", "MYR", .place), ("jln", "MYR", .place), ("taman", "MYR", .place),
        ("kuala lumpur", "MYR", .place), ("selangor", "MYR", .place), ("johor", "MYR", .place), ("penang", "MYR", .place),
        ("pulau pinang", "MYR", .place), ("perak", "MYR", .place), ("sabah", "MYR", .place), ("sarawak", "MYR", .place),
        ("melaka", "MYR", .place), ("kedah", "MYR", .place), ("pahang", "MYR", .place), ("negeri sembilan", "MYR", .place),
        ("putrajaya", "MYR", .place), ("sst", "MYR", .tax), ("gst reg", "MYR", .tax), ("gst no", "MYR", .tax), ("gst id", "MYR", .tax),
        ("cukai", "MYR", .tax),
        ("gmbh", "EUR", .legalForm), ("mwst", "EUR", .tax), ("ust", "EUR", .tax), ("ust-idnr", "EUR", .tax), ("strasse", "EUR", .place),
        ("deutschland", "EUR", .place), ("osterreich", "EUR", .place), ("sarl", "EUR", .legalForm), ("tva", "EUR", .tax),
        ("siret", "EUR", .tax), ("france", "EUR", .place), ("s.l", "EUR", .legalForm), ("iva", "EUR", .tax), ("espana", "EUR", .place),
        ("nif", "EUR", .tax), ("cif", "EUR", .tax),
        ("vat reg", "GBP", .tax), ("united kingdom", "GBP", .place), ("london", "GBP", .place),
        ("schweiz", "CHF", .place), ("suisse", "CHF", .place), ("mwst-nr", "CHF", .tax), ("che-", "CHF", .tax),
        ("sales tax", "USD", .tax), ("usa", "USD", .place),
        ("+60", "MYR", .phone), ("+49", "EUR", .phone), ("+43", "EUR", .phone), ("+33", "EUR", .phone), ("+34", "EUR", .phone),
        ("+44", "GBP", .phone), ("+41", "CHF", .phone)
    ]

    static let countryKeywords = KeywordList(countryWords.map(\.0))
    static let countryCurrency = Dictionary(countryWords.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { a, _ in a })

    static func currency(forLanguage language: String?) -> String? {
        switch language {
        case "deu", "fra", "spa": return "EUR"
        case "msa": return "MYR"
        default: return nil
        }
    }
}
