/// A list of folded keywords, indexed by their first two bytes so that a line is scanned once per list
/// instead of once per keyword (the parser checks a few hundred keywords on every line).
/// The first keyword *in list order* that occurs at word boundaries wins, as with a plain array.
struct KeywordList: Sequence, ExpressibleByArrayLiteral, Sendable {
    let words: [String]
    private let bytes: [[UInt8]]
    /// First byte → indices of the keywords (of two bytes or more) that start with it.
    private let index: [[Int]]
    /// Keywords of one byte ("$", "#").
    private let single: [(UInt8, Int)]
    /// False: keywords match anywhere, also inside words (a substring test).
    let wordBoundaries: Bool

    init(_ words: [String], wordBoundaries: Bool = true) {
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

    init(arrayLiteral elements: String...) { self.init(elements) }

    func makeIterator() -> IndexingIterator<[String]> { words.makeIterator() }

    /// Calls `found` with the index of every keyword that occurs in `text` at word boundaries, in no
    /// particular order; stops when `found` returns false.
    @inline(__always)
    func scan(_ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Bool) {
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
    func first(in folded: String) -> String? {
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
    func any(in folded: String) -> Bool {
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
    func all(in folded: String) -> [String] {
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
    static func firstKeyword(in folded: String, of keywords: KeywordList) -> String? { keywords.first(in: folded) }
}

extension Keywords {
    /// Marks printed before the year of the software that printed the page ("© 2018", "(c) 2018", "Copyright 2018"),
    /// folded; looked for as plain substrings.
    static let copyright = ["©", "(c)", "copyright"]
}
