import ShoeboxCore

/// Currency: from symbols and codes written on the page (next to amounts or on their own), else inferred
/// from country hints (legal forms, tax names, place names) and the language, and marked as inferred.
extension ReceiptParser {
    /// A bare "$" names no country: it is resolved by the country hints, else read as USD.
    static let dollar = "$"

    /// How often a currency is written on the page, where first, and whether every writing is doubtful.
    typealias CurrencyMarks = (count: Int, evidence: Evidence, doubtful: Bool)

    func currencyCandidates(_ lines: [Line], language: String?) -> [CurrencyCandidate] {
        typealias Marks = CurrencyMarks
        let (counts, dollarLines) = ReceiptParser.currencyMarks(lines)
        let hints = ReceiptParser.countryHints(lines)
        // A mark the page's country hints agree with is surer than a stray one ("Doc No. : €800013033", a "C"
        // misread, on a Malaysian slip that prints "(RM)" as often).
        let local = hints.first?.currency
        // One mark on its own that OCR itself doubts, against the page's country hints, is as likely a misread
        // (sparse reading turns a speck or a logo into "_ £ ies", every word at confidence 0) as a currency: it
        // scores below what the hints infer. A mark by an amount, or read with confidence, is not.
        func stray(_ code: String, _ entry: Marks) -> Bool {
            entry.count == 1 && entry.doubtful && local != nil && code != local
        }
        var out = counts.sorted { ($0.value.count, $0.key == local ? 1 : 0, $0.key) > ($1.value.count, $1.key == local ? 1 : 0, $1.key) }.map {
            entry in
            stray(entry.key, entry.value)
                ? CurrencyCandidate(
                    value: entry.key, role: .explicit, score: CurrencyWeights.strayMark, evidence: entry.value.evidence,
                    notes: ["written once, doubtfully read, against the country hints (\(local ?? ""))"])
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
                    evidence: nil, checks: [.fromCountry],
                    notes: [
                        (out.isEmpty ? "no currency on the page" : "only a stray mark on the page")
                            + "; inferred from " + country.notes.joined(separator: ", ")
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
                value: country.currency, role: .inferred, score: CurrencyWeights.localDollar, evidence: first.evidence, checks: [.fromCountry],
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
        func add(_ code: String, _ line: Line, doubtful: Bool) {
            counts[code] = ((counts[code]?.count ?? 0) + 1, counts[code]?.evidence ?? line.evidence, (counts[code]?.doubtful ?? true) && doubtful)
        }
        var dollarLines: [Line] = []
        for line in lines {
            for f in line.amounts {
                guard let hint = f.reading.currencyHint else { continue }
                if hint == "USD" && !TextFolding.containsSubstring(line.text, "US$") && !TextFolding.containsSubstring(line.folded, "usd") {
                    dollarLines.append(line)
                } else {
                    add(hint, line, doubtful: false)
                }
            }
            // Codes and symbols on their own: "Währung: EUR", "Total € Incl. VAT", "Amount (RM)".
            for mark in ReceiptParser.standaloneKeywords.all(in: line.folded) {
                // OCR's own confidence in the word that prints the mark (a text layer's is 100).
                let confidence = line.line.words.filter { TextFolding.containsSubstring(TextFolding.fold($0.text), mark) }.map(\.confidence).max()
                add(ReceiptParser.standaloneCode[mark]!, line, doubtful: (confidence ?? 100) < ReceiptParser.doubtfulMarkConfidence)
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

    struct CountryGuess {
        let currency: String
        let weight: Int
        let notes: [String]
    }

    /// Country hints on the page, strongest first: legal forms, tax names, place words.
    static func countryHints(_ lines: [Line]) -> [CountryGuess] {
        var weights: [String: (Int, [String])] = [:]
        for line in lines {
            for word in countryKeywords.all(in: line.folded) {
                let currency = countryCurrency[word]!
                var entry = weights[currency] ?? (0, [])
                entry.0 += 1
                if entry.1.count < 3 && !entry.1.contains("'\(word)'") { entry.1.append("'\(word)'") }
                weights[currency] = entry
            }
        }
        return weights.sorted { ($0.value.0, $0.key) > ($1.value.0, $1.key) }
            .map { CountryGuess(currency: $0.key, weight: $0.value.0, notes: $0.value.1) }
    }

    /// Words that place a receipt in a country, and that country's currency.
    static let countryWords: [(String, String)] = [
        ("sdn bhd", "MYR"), ("sdn. bhd", "MYR"), ("bhd", "MYR"), ("berhad", "MYR"), ("malaysia", "MYR"), ("jalan", "MYR"),
        ("jln", "MYR"), ("taman", "MYR"), ("kuala lumpur", "MYR"), ("selangor", "MYR"), ("johor", "MYR"), ("penang", "MYR"),
        ("pulau pinang", "MYR"), ("perak", "MYR"), ("sabah", "MYR"), ("sarawak", "MYR"), ("melaka", "MYR"), ("kedah", "MYR"),
        ("pahang", "MYR"), ("negeri sembilan", "MYR"), ("putrajaya", "MYR"), ("sst", "MYR"), ("gst reg", "MYR"), ("gst no", "MYR"),
        ("gst id", "MYR"), ("cukai", "MYR"),
        ("gmbh", "EUR"), ("mwst", "EUR"), ("ust", "EUR"), ("ust-idnr", "EUR"), ("strasse", "EUR"), ("deutschland", "EUR"),
        ("osterreich", "EUR"), ("sarl", "EUR"), ("tva", "EUR"), ("siret", "EUR"), ("france", "EUR"), ("s.l", "EUR"),
        ("iva", "EUR"), ("espana", "EUR"), ("nif", "EUR"), ("cif", "EUR"),
        ("vat reg", "GBP"), ("united kingdom", "GBP"), ("london", "GBP"),
        ("schweiz", "CHF"), ("suisse", "CHF"), ("mwst-nr", "CHF"), ("che-", "CHF"),
        ("sales tax", "USD"), ("usa", "USD")
    ]

    static let countryKeywords = KeywordList(countryWords.map(\.0))
    static let countryCurrency = Dictionary(countryWords, uniquingKeysWith: { a, _ in a })

    static func currency(forLanguage language: String?) -> String? {
        switch language {
        case "deu", "fra", "spa": return "EUR"
        case "msa": return "MYR"
        default: return nil
        }
    }
}
