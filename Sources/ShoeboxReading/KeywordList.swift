public import ShoeboxCore

/// A list of folded keywords, indexed by their first two bytes so that a line is scanned once per list
/// instead of once per keyword (the parser checks a few hundred keywords on every line).
/// The first keyword *in list order* that occurs at word boundaries wins, as with a plain array.
public struct KeywordList: Sequence, ExpressibleByArrayLiteral, Sendable {
    public let words: [String]
    private let bytes: [[UInt8]]
    /// First byte → indices of the keywords (of two bytes or more) that start with it.
    private let index: [[Int]]
    /// Keywords of one byte ("$", "#").
    private let single: [(UInt8, Int)]
    /// False: keywords match anywhere, also inside words (a substring test).
    package let wordBoundaries: Bool

    package init(_ words: [String], wordBoundaries: Bool = true) {
        self.words = words
        self.wordBoundaries = wordBoundaries
        bytes = words.map { Array($0.utf8) }
        var index = [[Int]](repeating: [], count: 256)
        var single: [(UInt8, Int)] = []
        for (i, b) in bytes.enumerated() {
            if b.count >= 2 { index[Int(b[0])].append(i) } else if let only = b.first { single.append((only, i)) }
        }
        self.index = index
        self.single = single
    }

    public init(arrayLiteral elements: String...) { self.init(elements) }

    public func makeIterator() -> IndexingIterator<[String]> { words.makeIterator() }

    /// Calls `found` with the index of every keyword that occurs in `text` at word boundaries, in no
    /// particular order; stops when `found` returns false.
    @inline(__always)
    package func scan(_ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Bool) {
        let n = text.count
        guard n > 0 else { return }
        for i in 0..<n {
            for (b, k) in single where text[i] == b && boundaryOK(text, i, 1, b, b) { if !found(k) { return } }
            guard i + 1 < n else { continue }
            for k in index[Int(text[i])] {
                let key = bytes[k]
                let m = key.count
                guard i + m <= n, text[i + 1] == key[1] else { continue }
                var j = 2
                while j < m && text[i + j] == key[j] { j += 1 }
                if j == m && boundaryOK(text, i, m, key[0], key[m - 1]) { if !found(k) { return } }
            }
        }
    }

    @inline(__always)
    private func boundaryOK(_ text: UnsafeBufferPointer<UInt8>, _ i: Int, _ m: Int, _ first: UInt8, _ last: UInt8) -> Bool {
        guard wordBoundaries else { return true }
        let beforeOK = i == 0 || !TextFolding.isLetterByte(text[i - 1]) || !TextFolding.isLetterByte(first)
        let afterOK = i + m == text.count || !TextFolding.isLetterByte(text[i + m]) || !TextFolding.isLetterByte(last)
        return beforeOK && afterOK
    }

    /// The first keyword in list order that occurs in `folded`.
    package func first(in folded: String) -> String? {
        var folded = folded
        var best = Int.max
        folded.withUTF8 { text in
            scan(text) { k in
                best = Swift.min(best, k)
                return best > 0
            }
        }
        return best == Int.max ? nil : words[best]
    }

    /// Whether any keyword occurs in `folded`.
    public func any(in folded: String) -> Bool {
        var folded = folded
        var found = false
        folded.withUTF8 { text in
            scan(text) { _ in
                found = true
                return false
            }
        }
        return found
    }

    /// Every keyword that occurs in `folded`, in list order.
    package func all(in folded: String) -> [String] {
        var folded = folded
        var found = Set<Int>()
        folded.withUTF8 { text in
            scan(text) {
                found.insert($0)
                return true
            }
        }
        return found.sorted().map { words[$0] }
    }
}

extension TextFolding {
    public static func firstKeyword(in folded: String, of keywords: KeywordList) -> String? { keywords.first(in: folded) }
}

extension Keywords {
    /// Marks printed before the year of the software that printed the page ("© 2018", "(c) 2018", "Copyright 2018"),
    /// folded; looked for as plain substrings.
    package static let copyright = ["©", "(c)", "copyright"]
}

/// The merchant rules' lists of what is printed around a shop's name and is not it, and of what names it again.
extension Keywords {
    /// Opening hours: "OPEN DAILY 10AM-10PM", "Öffnungszeiten", "Horario". Times and weekday ranges without
    /// these words are `ReceiptParser.looksLikeOpeningHours`.
    package static let openingHours: KeywordList = [
        "open daily", "opening hours", "open hours", "business hours", "trading hours", "store hours", "open from", "open 24",
        "24 hours", "24 hrs", "offnungszeiten", "geoffnet", "horario", "horarios", "abierto", "heures d'ouverture", "horaires",
        "ouvert", "waktu operasi", "waktu perniagaan", "dibuka", "24 jam"
    ]
    /// Notices, slogans and requests printed near the name: return policies, feedback lines, sign-offs.
    package static let notices: KeywordList = [
        "goods sold", "not returnable", "not refundable", "non-refundable", "non refundable", "returnable", "refundable",
        "exchangeable", "no refund", "no exchange", "feedback", "complaint", "complaints", "please call", "call us", "follow us",
        "like us", "customer service", "customer care", "careline", "care line", "hotline", "helpline", "redeem", "expiry",
        "your satisfaction", "our priority", "have a nice day", "see you again", "see you soon", "come again",
        "schonen tag", "bis bald", "auf wiedersehen", "wunschlos glucklich", "bonne journee", "a bientot", "au revoir",
        "buen dia", "hasta pronto", "vuelva pronto", "sila datang lagi", "jumpa lagi", "barang yang dibeli"
    ]
    /// Words that make a line a sentence rather than a name ("Goods sold are not returnable", "Your satisfaction is
    /// our priority"): two of them, without a legal form.
    package static let sentenceWords: KeywordList = [
        "is", "are", "will", "be", "not", "our", "your", "we", "you", "ist", "sind", "wird", "nicht", "wir", "ihr", "ihre",
        "unser", "unsere", "est", "sont", "pas", "nous", "vous", "votre", "notre", "es", "son", "su", "sus", "nuestro",
        "nuestra", "adalah", "tidak", "kami", "anda"
    ]
    /// Company registration and tax lines: "Co. Reg. No", "ROC", "GST ID", "Handelsregister".
    package static let registration: KeywordList = [
        "co. reg", "co reg", "co. no", "co no", "company no", "company reg", "reg. no", "reg no", "registration no", "roc",
        "business reg", "no. syarikat", "no syarikat", "ssm", "gst id", "gst reg", "gst no", "gst ref", "sst id", "sst reg",
        "handelsregister", "hrb", "hra", "amtsgericht", "registergericht", "rcs", "siret", "siren", "registro mercantil"
    ]
    /// Labels before a legal owner's name ("Dimiliki oleh: …", "Owned by …"): the name is what follows.
    package static let ownerLabels = [
        "dimiliki oleh:", "dimiliki oleh", "dimiliki:", "dimiliki", "owned by:", "owned by", "operated by:", "operated by",
        "betrieben von:", "betrieben von", "exploite par:", "exploite par"
    ]
    /// Mail and social hosts: an address there names the provider, not the shop.
    package static let sharedHosts: Set<String> = [
        "gmail", "googlemail", "yahoo", "hotmail", "outlook", "live", "msn", "icloud", "aol", "gmx", "web", "t-online",
        "freenet", "proton", "protonmail", "yandex", "mail", "email", "streamyx", "tm", "orange", "wanadoo", "laposte", "free",
        "sfr", "facebook", "instagram", "twitter", "tiktok", "youtube", "google", "wa", "whatsapp"
    ]
    /// The endings of web hosts, read right to left ("example.com.my": "my", then "com").
    package static let hostEndings: Set<String> = [
        "com", "net", "org", "biz", "info", "co", "my", "de", "fr", "es", "uk", "eu", "sg", "at", "ch", "it", "nl", "be", "us",
        "gov", "edu", "io", "shop", "store"
    ]
}
