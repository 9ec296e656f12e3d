internal import Foundation
internal import ShoeboxCore
internal import ShoeboxJudgement

/// What each route of the review desk answers, one type per body (the requests' are beside the routes, in ReviewApp).
/// Encoded with sorted keys; a value a body says is absent is written as `null` (`Nullable`), not left out, where the
/// desk's script asks for it (`series`, `undone`, `cancelledOn`).
extension ReviewApp {
    /// Any refusal or failure: a sentence for the person.
    struct ErrorBody: Encodable {
        let error: String
    }

    /// A record as the desk reads it: its JSON line's keys, and how it was paid in words (`paidWithText`, as the
    /// terminal says it).
    struct RecordBody: Encodable {
        let record: DocumentRecord

        enum Extra: String, CodingKey { case paidWith }

        func encode(to encoder: any Encoder) throws {
            try record.encode(to: encoder)
            var c = encoder.container(keyedBy: Extra.self)
            try c.encodeIfPresent(record.paidWithText, forKey: .paidWith)
        }
    }

    /// `GET /api/queue`.
    struct QueueBody: Encodable {
        let counts: [String: Int]
        let state: String
        let folders: [String]
        let categories: [String: [String]]
        let reasons: [String]
        let items: [QueueItem]
    }

    /// One record in the queue's list.
    struct QueueItem: Encodable {
        let source, folder, status: String
        let reasons: [String]
        let merchant, date, total, currency: String

        init(_ r: DocumentRecord) {
            source = r.source
            folder = r.folder
            status = r.status.rawValue
            reasons = r.reasons.map(\.code)
            merchant = r.merchant ?? ""
            date = r.date?.iso ?? ""
            total = r.total?.decimalString ?? ""
            currency = r.currency?.code ?? ""
        }
    }

    /// `GET /api/record`.
    struct RecordPageBody: Encodable {
        let record: RecordBody
        let suggestion: RecordBody
        let today: String
        let geometry: PageView.Geometry
        let categories: [String]
        let editable: [String]
        let log: [LogEntry]
    }

    /// One decision of the record's log, as the desk lists it.
    struct LogEntry: Encodable {
        let action, field, before, after, who, at: String
        let undone: Bool

        init(_ d: LoggedDecision) {
            action = d.decision.action.rawValue
            field = d.decision.field?.rawValue ?? ""
            before = d.before ?? ""
            after = d.after ?? ""
            who = d.desk?.rawValue ?? ""
            at = d.at
            undone = d.undone
        }
    }

    /// `POST /api/decide` and `POST /api/add`: the record as it stands after.
    struct DecidedBody: Encodable {
        let record: RecordBody
    }

    /// `GET /api/series`: the series, or `null` when the record is a charge of none.
    struct SeriesBody: Encodable {
        let series: Nullable<SeriesItem>
    }

    struct SeriesItem: Encodable, Sendable {
        let merchant, cadence, amount, currency: String
        let charges: Int
        let lastCharge, nextExpected, status: String
        let cancelledOn: Nullable<String>

        init(_ s: Series) {
            merchant = s.merchant
            cadence = s.cadence.rawValue
            amount = s.amount.decimalString
            currency = s.currency.code
            charges = s.history.count
            lastCharge = s.lastCharge.iso
            nextExpected = s.nextExpected.iso
            status = s.status.rawValue
            cancelledOn = Nullable(s.cancelledOn?.iso)
        }
    }

    /// `POST /api/cancel-series`.
    struct CancelledBody: Encodable {
        let merchant, on: String
        let flagged: [String]
    }

    /// `POST /api/undo`: the decision taken back, or `null` when there was none.
    struct UndoBody: Encodable {
        struct Undone: Encodable, Sendable {
            let source, action, field: String
        }
        let undone: Nullable<Undone>
    }
}

extension HTTPResponse {
    /// A body of the desk's as JSON (sorted keys, slashes unescaped as the record's JSON lines are).
    static func json(_ status: Int, _ body: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The bodies are strings, numbers, arrays and records: encoding them cannot fail.
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(data))
    }

    /// A refusal or failure as `{"error": sentence}`.
    static func error(_ status: Int, _ sentence: String) -> HTTPResponse { json(status, ReviewApp.ErrorBody(error: sentence)) }
}
