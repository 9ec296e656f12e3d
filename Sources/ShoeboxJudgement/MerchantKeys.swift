import Foundation
public import ShoeboxCore
import ShoeboxParsing
import ShoeboxReading

extension MerchantKey {
    /// The keys of the shop that issued a document, sorted, each once: tax and registration numbers and web or mail
    /// domains from every page read; phone numbers, the postcode line and the head's shape from the first page only
    /// (a later page prints the buyer's, the bank's or the carrier's). Pure; the work is bounded by the lines' and
    /// pages' limits.
    public static func keys(of pages: [OCRPage]) -> [MerchantKey] {
        let n = ReceiptParser.pagesReadAtEachEnd
        let read = pages.count > 2 * n ? Array(pages.prefix(n) + pages.suffix(n)) : pages
        var found = Set<MerchantKey>()
        var addressRead = false
        for (p, page) in read.enumerated() {
            let texts = page.lines.map(\.text)
            let folded = texts.map { TextFolding.fold($0) }
            let buyer = SellerTaxID.inBuyerBlock(folded)
            for k in texts.indices {
                if !buyer[k] {
                    // "GST No. :" with the number on the line below: read the two lines as one.
                    var ids = MerchantKeyReader.taxIDs(texts[k], folded[k])
                    if ids.isEmpty, k + 1 < texts.count, MerchantKeyReader.endsInKeyword(folded[k]) {
                        ids = MerchantKeyReader.taxIDs(texts[k] + " " + texts[k + 1], folded[k] + " " + folded[k + 1])
                    }
                    found.formUnion(ids.map { MerchantKey(.taxID, $0) })
                }
                found.formUnion(MerchantKeyReader.domains(folded[k]).map { MerchantKey(.domain, $0) })
                guard p == 0 else { continue }
                if !buyer[k] {
                    var phones = MerchantKeyReader.phones(texts[k], folded[k])
                    if phones.isEmpty, k < MerchantKeyReader.headerLines { phones = MerchantKeyReader.phoneShapes(texts[k]) }
                    found.formUnion(phones.map { MerchantKey(.phone, $0) })
                    if k < MerchantKeyReader.headerLines, let r = MerchantKeyReader.registrationNumber(texts[k]) {
                        found.insert(MerchantKey(.taxID, r))
                    }
                }
                // The shop's address comes first; a later one is the buyer's or a branch's.
                if !addressRead, !buyer[k], k < MerchantKeyReader.headerLines, let a = MerchantKeyReader.address(folded, at: k) {
                    found.insert(MerchantKey(.address, a))
                    addressRead = true
                }
            }
            if p == 0, let h = MerchantKeyReader.head(folded) { found.insert(MerchantKey(.head, h)) }
        }
        return found.sorted()
    }
}

/// The readers behind `MerchantKey.keys(of:)`, one per kind; each returns normalised values, nil or none.
enum MerchantKeyReader {
    /// Lines at the top of the first page that print the shop's own address and registration number: below
    /// them a bare "(123456-X)" or a postcode may be the buyer's, the bank's or a date's digits.
    static let headerLines = 15

    // MARK: Tax and registration numbers

    /// The seller's VAT / GST / tax number and company registration number after their keywords, OCR's letters
    /// for digits mended, normalised by `taxIDValue`.
    static func taxIDs(_ text: String, _ folded: String) -> [String] {
        var out: [String] = []
        for list in [Keywords.vatID, Keywords.companyRegistration] {
            guard let (keyword, id) = SellerTaxID.read(text, folded: folded, keywords: list, repairingOCR: true),
                let value = taxIDValue(id, keyword: keyword)
            else { continue }
            out.append(value)
        }
        return out
    }

    /// Whether the line ends in a tax-ID keyword and a marker, without the number ("GST No. :").
    static func endsInKeyword(_ folded: String) -> Bool {
        let trimmed = TextFolding.trim(folded, [" ", ".", ":", ";", ",", "#", "|", "(", "[", "-"])
        return [Keywords.vatID, Keywords.companyRegistration].contains { list in
            list.words.contains { trimmed.hasSuffix($0) } || ["no", "nr"].contains { trimmed.hasSuffix($0) && list.any(in: trimmed) }
        }
    }

    /// One number, however the shop prints it: the Malaysian check letter ("123456-X") and leading zeros of an
    /// all-digit number dropped (OCR drops and adds zeros there); "ES" before a Spanish NIF dropped (the VAT number
    /// is the NIF); a French SIRET or VAT number cut to its SIREN, the nine digits every French number of the shop
    /// holds.
    static func taxIDValue(_ id: String, keyword: String) -> String? {
        var v = Array(id)
        if v.count >= 2, v.last!.isLetterFast, v.dropLast().allSatisfy(\.isDigitASCII) { v.removeLast() }
        // "G00150511616": no tax number is one letter and ten digits or more; the letter is a misread 0.
        if v.count >= 11, v.first!.isLetterFast, v.dropFirst().allSatisfy(\.isDigitASCII) { v.removeFirst() }
        if v.allSatisfy(\.isDigitASCII) {
            if keyword == "siret" && v.count == 14 { v = Array(v.prefix(9)) }
            v = Array(v.drop { $0 == "0" })
        } else if v.count == 13, v.starts(with: "FR"), v.suffix(9).allSatisfy(\.isDigitASCII) {
            v = Array(v.suffix(9))
        } else if v.count == 11, v.starts(with: "ES") {
            v = Array(v.dropFirst(2))
        }
        guard v.filter(\.isDigitASCII).count >= 6 else { return nil }
        return String(v)
    }

    /// A Malaysian company number printed bare under the name: "(65351-M)", "(001451 637-M)", "[1110644-W]",
    /// "SDN BHD 1110644-W": five digits or more, a hyphen, one letter, in brackets or at the end of the line.
    /// Its digits, leading zeros dropped, as the keyword-led reading gives them.
    static func registrationNumber(_ text: String) -> String? {
        let chars = Array(OCRDigits.repaired(text))
        var i = 0
        while i < chars.count {
            guard chars[i].isDigitASCII, i == 0 || !chars[i - 1].isLetterFast && !chars[i - 1].isDigitASCII else {
                i += 1
                continue
            }
            let start = i
            var digits = ""
            while i < chars.count && (chars[i].isDigitASCII || chars[i] == " ") {
                if chars[i].isDigitASCII { digits.append(chars[i]) }
                i += 1
            }
            guard i + 1 < chars.count, chars[i] == "-", chars[i + 1].isLetterFast, (5...12).contains(digits.count) else { continue }
            let end = i + 2
            let bracketBefore = chars[..<start].last { $0 != " " }.map { "([{".contains($0) } ?? false
            let closed = end == chars.count || ")]} ".contains(chars[end])
            let bracketAfter = end < chars.count && ")]}".contains(chars[end])
            guard closed, bracketBefore || bracketAfter || end == chars.count else { continue }
            let value = String(digits.drop { $0 == "0" })
            return value.count >= 5 ? value : nil
        }
        return nil
    }

    // MARK: Phone numbers

    /// "TEL : 03-3271 9872", "Tel. +49 (0)30 1234567", "Fax 01 23 45 67 89", "H/P: 012-345 6789": each number
    /// after a phone label, its digits without the country code and the trunk 0. Seven digits or more.
    static func phones(_ text: String, _ folded: String) -> [String] {
        // Offsets in the folded line must be offsets in the text (true for ASCII and for "TÉL").
        guard folded.count == text.count else { return [] }
        let chars = Array(text)
        var out: [String] = []
        for end in labelEnds(Array(folded)) {
            // The number runs over digits and their separators; repaired first, as a label says a number follows.
            let after = OCRDigits.repaired(String(chars[end...].prefix(40)))
            var run = ""
            for ch in after.drop(while: { " .:;-#noNO".contains($0) && !$0.isDigitASCII }) {
                if ch.isDigitASCII || " -./()+".contains(ch) { run.append(ch) } else { break }
            }
            for part in run.split(whereSeparator: { $0 == "/" || $0 == "," }) {
                if let v = phoneValue(String(part)) { out.append(v) }
            }
        }
        return out
    }

    /// Numbers in a phone's shape without a label, in the shop's header where OCR often garbles the label ("Pel:",
    /// "Vel:"): a trunk 0 or a "+", an area code, then seven or eight digits in groups ("03-4021 0276",
    /// "012-659 9829", "+49 30 1234567", "030/1234567"); or the French "01 23 45 67 89".
    static func phoneShapes(_ text: String) -> [String] {
        guard text.count <= 120, text.contains(where: \.isDigitASCII) else { return [] }
        let ns = text as NSString
        return phoneShape.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { phoneValue(ns.substring(with: $0.range)) }
    }

    /// Bounded repeats only, so no input makes it backtrack for long.
    static let phoneShape = try! NSRegularExpression(
        pattern: #"(?<![\d/.,:+-])(?:(?:\+\d{2,3}[ -]?)?\(?0\d{1,4}\)?(?:[ /-]| - |- | -)\d{3,4}[ -]?\d{3,5}|0[1-9](?:[ .]\d\d){4})(?![\d/.,:-])"#)

    /// Where each phone label on the folded line ends: labels stand as words ("hotel" holds no "tel").
    static func labelEnds(_ f: [Character]) -> [Int] {
        var ends: [Int] = []
        var i = 0
        while i < f.count {
            defer { i += 1 }
            guard i == 0 || !f[i - 1].isLetterFast else { continue }
            for label in phoneLabels where i + label.count <= f.count && f[i..<(i + label.count)].elementsEqual(label) {
                let end = i + label.count
                if end == f.count || !f[end].isLetterFast {
                    ends.append(end)
                    i = end - 1
                    break
                }
            }
        }
        return ends
    }

    /// Folded words that say a phone or fax number follows, longest first.
    static let phoneLabels = [
        "telephone", "telefono", "telefon", "telefax", "phone", "mobile", "mobil", "movil", "handy", "tel", "fax", "h/p", "hp",
        "tlf"
    ]

    /// Digits of one number: "+60 3-1234 5678", "0060 3 1234 5678" and "03-1234 5678" all give "312345678";
    /// "+49 (0)30 1234567" gives "301234567". Nil below seven digits or above twelve (two numbers run together).
    static func phoneValue(_ raw: String) -> String? {
        let trimmed = raw.drop { $0 == " " || $0 == "(" || $0 == "-" }
        var digits = Array(trimmed.replacingOccurrences(of: "(0)", with: "").filter(\.isDigitASCII))
        // "+ 03-…": a plus before a trunk 0 is a misread colon, not a country code.
        let plus = trimmed.hasPrefix("+") && digits.first != "0"
        if plus || digits.starts(with: ["0", "0"]) {
            if !plus { digits.removeFirst(2) }
            guard let code = countryCodes.first(where: { digits.starts(with: Array($0)) }) else { return nil }
            digits.removeFirst(code.count)
        } else if digits.starts(with: ["6", "0"]) && digits.count >= 10 {
            // "603-6203 6355": Malaysia's code written without the plus (no trunk 0 before it).
            digits.removeFirst(2)
        }
        if digits.first == "0" { digits.removeFirst() }
        guard (7...12).contains(digits.count) else { return nil }
        return String(digits)
    }

    /// Calling codes of the countries whose receipts come in, and their neighbours.
    static let countryCodes = ["60", "65", "62", "66", "49", "33", "34", "44", "41", "43", "31", "32", "39", "351", "352", "1"]

    // MARK: Domains

    /// "www.shop.com.my", "info@laden.de", "https://boutique.fr/": the registrable domain, lower case. A word with
    /// dots counts only with a known top-level domain ("SDN.BHD" is none); a shared mail provider is no key.
    static func domains(_ folded: String) -> [String] {
        guard folded.contains(".") else { return [] }
        var line = folded
        // "www. shop. com. my": OCR puts spaces after the dots of an address it knows is one.
        if ["www", "@", "http"].contains(where: { TextFolding.containsSubstring(folded, $0) }) {
            line = line.replacingOccurrences(of: ". ", with: ".").replacingOccurrences(of: " .", with: ".").replacingOccurrences(of: "|", with: "l")
        }
        var out: [String] = []
        for token in line.split(whereSeparator: { " ,;()<>".contains($0) }) where token.contains(".") {
            var host = Substring(token)
            var marked = false
            if let at = host.lastIndex(of: "@") {
                host = host[host.index(after: at)...]
                marked = true
            }
            for prefix in ["https://", "http://", "www."] where host.hasPrefix(prefix) {
                host = host.dropFirst(prefix.count)
                marked = true
            }
            if let slash = host.firstIndex(of: "/") { host = host[..<slash] }
            if let v = domain(String(TextFolding.trim(String(host), ["."])), marked: marked) { out.append(v) }
        }
        return out
    }

    /// The registrable part of `host` ("shop.com.my" of "web.shop.com.my"), or nil when it is no domain.
    /// `marked`: "www.", "@" or "http" stood before it, so any top-level domain of letters counts.
    private static func domain(_ host: String, marked: Bool) -> String? {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } })
        else { return nil }
        // OCR reads "com" as "corn", "cam" or "con", and "my" as "ny".
        if ["corn", "cam", "con", "c0m"].contains(labels[labels.count - 1]) { labels[labels.count - 1] = "com" }
        if labels[labels.count - 1] == "ny" && labels.count >= 3 { labels[labels.count - 1] = "my" }
        let tld = labels[labels.count - 1]
        guard marked ? tld.count >= 2 && tld.allSatisfy(\.isLetter) : topLevelDomains.contains(tld) else { return nil }
        // "shop.com.my": a second-level domain under a country counts as part of the suffix.
        let suffixLabels = labels.count >= 3 && tld.count == 2 && secondLevel.contains(labels[labels.count - 2]) ? 2 : 1
        guard labels.count > suffixLabels else { return nil }
        let name = labels[labels.count - suffixLabels - 1]
        guard name.filter(\.isLetter).count >= (marked ? 2 : 3) else { return nil }
        let registrable = labels.suffix(suffixLabels + 1).joined(separator: ".")
        guard !isSharedMail(name), !sharedDomains.contains(registrable), labels[labels.count - 2] != "gov" else { return nil }
        return registrable
    }

    /// Top-level domains a dotted word must end in to count without "www.", "@" or "http".
    static let topLevelDomains: Set<String> = [
        "com", "net", "org", "info", "biz", "my", "de", "fr", "es", "eu", "uk", "at", "ch", "it", "nl", "be", "sg", "asia", "shop", "store"
    ]
    static let secondLevel: Set<String> = ["com", "co", "net", "org", "gov", "edu", "ac"]
    /// Mail providers many shops share: their domain names no shop.
    static let sharedMail: Set<String> = [
        "gmail", "googlemail", "yahoo", "ymail", "hotmail", "outlook", "live", "msn", "icloud", "me", "aol", "gmx", "protonmail",
        "proton", "mail", "streamyx", "wanadoo", "orange", "free", "laposte", "sfr", "t-online", "web", "freenet", "telefonica",
        "yandex", "zoho", "qq", "163"
    ]
    /// Sites many shops link to (social pages, the tax office's e-invoice portal): no shop's own.
    static let sharedDomains: Set<String> = [
        "tm.net.my", "facebook.com", "fb.com", "instagram.com", "twitter.com", "x.com", "tiktok.com", "youtube.com", "google.com",
        "linkedin.com", "wa.me", "whatsapp.com"
    ]

    /// A shared mail provider, also as OCR misreads it ("gnail", "hotmai1"): one letter off a name of five letters
    /// or more.
    static func isSharedMail(_ name: String) -> Bool {
        if sharedMail.contains(name) { return true }
        let a = Array(name)
        return sharedMail.contains { provider in
            let b = Array(provider)
            return b.count >= 5 && a.count == b.count && zip(a, b).filter { $0 != $1 }.count == 1
        }
    }

    // MARK: Address

    /// The shop's postcode and street numbers: a five-digit postcode before a place name ("43300 SERI KEMBANGAN",
    /// "10115 Berlin", "75001 Paris", "28001 Madrid") on line `k`, then the numbers of the street lines above it and
    /// before it on the same line ("NO. 53, JALAN BESAR", "Hauptstr. 12", "12 rue …", "Calle Mayor 5"): "4560053".
    /// Place names OCR misreads ("BERJUNTAI", "BERJUNTAY") and the shops of a town share; the numbers are read more
    /// steadily and tell two shops of one postcode apart (one digit alone does not). Nil with fewer than two.
    static func address(_ folded: [String], at k: Int) -> String? {
        let line = Array(folded[k])
        guard let postcode = postcodeBeforePlace(line) else { return nil }
        let streets = folded[max(0, k - 2)..<k] + [String(line[..<postcode.lowerBound])]
        let numbers = streetNumbers(streets.filter { Keywords.address.any(in: $0) || namesGermanStreet($0) })
        return numbers.count >= 2 ? String(line[postcode]) + numbers : nil
    }

    /// "Hauptstraße 12", "Bahnhofstr. 3", "Am Mühlweg 7": German streets are compounds, so the street word is the
    /// end of a longer word.
    static func namesGermanStreet(_ folded: String) -> Bool {
        folded.split(separator: " ").contains { word in
            germanStreetEnds.contains { word.count >= $0.count + 3 && word.hasSuffix($0) }
        }
    }

    static let germanStreetEnds = ["strasse", "straße", "str.", "gasse", "weg", "allee", "platz", "damm", "ufer"]

    /// The runs of one to four digits of street lines, top to bottom, at most eight digits ("No 3, Jalan Permas
    /// 10/8" → "3108"); longer runs are postcodes, phone or registration numbers.
    static func streetNumbers(_ streets: [String]) -> String {
        let runs = streets.flatMap { $0.split(whereSeparator: { !$0.isDigitASCII }) }.filter { $0.count <= 4 }
        return String(runs.joined().prefix(8))
    }

    /// The range of a run of exactly five digits followed (past spaces and commas) by a word of three letters or
    /// more, not after "/" or ":" (a receipt number "CS1801/26874").
    static func postcodeBeforePlace(_ chars: [Character]) -> Range<Int>? {
        var i = 0
        while i < chars.count {
            guard chars[i].isDigitASCII else {
                i += 1
                continue
            }
            let start = i
            while i < chars.count && chars[i].isDigitASCII { i += 1 }
            guard i - start == 5, start == 0 || !"/:".contains(chars[start - 1]) else { continue }
            var j = i
            while j < chars.count && (chars[j] == " " || chars[j] == ",") { j += 1 }
            if chars[j...].prefix(while: { $0.isLetter }).count >= 3 { return start..<i }
        }
        return nil
    }

    // MARK: Head

    /// The first two lines of the first page that hold three letters or digits or more: their first sixteen
    /// letters and digits, folded. The weakest key: a chain's branches share it, and OCR often misreads the top.
    static func head(_ folded: [String]) -> String? {
        var value = ""
        var taken = 0
        for line in folded where taken < 2 {
            let kept = line.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            // Specks and smudges above the name read as a few stray letters and marks: a line counts with four
            // letters or more making most of what it prints.
            let letters = kept.filter(\.isLetter).count
            guard letters >= 4, letters * 3 >= line.filter({ $0 != " " }).count * 2 else { continue }
            value += kept
            taken += 1
        }
        value = String(value.prefix(16))
        return value.count >= 8 ? value : nil
    }
}
