// The line-item suite (`Fixtures/items/`): one till receipt per language that prints every kind of item line a reader
// must take apart — a quantity line (under the item, above it, or as a count before the name), a weighed article, a
// description going on onto a second line, a discount, a deposit charged and one returned, a voided article, and two
// tax rates whose codes follow each amount. Amounts are computed, so the items always sum to what the page prints.

let itemFixtures: [Receipt] = [
    Receipt(
        id: "deu-items-discounter", language: .deu, destination: .items, font: "DejaVu Sans Mono", fontSize: 36,
        note: "weighed bananas, '6 Stk x 0,49' under the item, Pfand and Leergut, Storno, 'Rabatt 20%', '0,75-', A/B codes for 7% and 19%",
        merchant: "Nahkauf Discount Lindner",
        header: ["Bahnhofstraße 3, 04109 Leipzig", "USt-IdNr. DE298765432"],
        date: Day(2026, 5, 8), dateStyle: .dotted, time: "17:26",
        reference: ("Bon-Nr.", "2291"), extraInfo: "Kasse 1  Bed. 04",
        money: .euroDE, pricing: .gross, taxRates: [.mwst7, .mwst19], taxCodes: ["A", "B"], minusAfter: true,
        items: [
            Item("Bananen", grams: 1254, centsPerKilo: 199),
            Item("Mineralwasser 1,5 l", 49, quantity: 6, tax: 1).printed(.below),
            Item(.deposit, "Pfand", 150, tax: 1),
            Item(.deposit, "Leergut", -75, tax: 1),
            Item("geschnitten 500 g", 229).wrapped("Bio Dinkel Vollkornbrot", below: false),
            Item("Kaffee Crema 1 kg", 1299),
            Item(.void, "Storno Kaffee Crema 1 kg", -1299),
            Item("Spülmittel Zitrone", 179, tax: 1),
            Item(.discount, "Rabatt 20%", -36, tax: 1),
            Item("Butter 250 g", 229, quantity: 2)
        ],
        labels: .deu.with(total: "SUMME"),
        payment: .card(detail: "Girocard kontaktlos")),

    Receipt(
        id: "eng-items-supermarket", language: .eng, destination: .items, font: "Liberation Mono", fontSize: 36,
        note: "'2 @ 1.45' under the item, loose carrots by weight, a wrapped name, VOID, discount, bottle deposit, A/B codes for 20% and 5%",
        merchant: "Fairfield Food Market",
        header: ["21 Castle Street, York", "YO1 9RN", "VAT No: GB 246 8101 23"],
        date: Day(2026, 2, 19), dateStyle: .slashDMY, time: "10:12",
        extraInfo: "Till 2  Op 311",
        money: .pound, pricing: .gross, taxRates: [.vat20, .vat5], taxCodes: ["A", "B"],
        items: [
            Item("Semi Skimmed Milk 2L", 145, quantity: 2, tax: 1).printed(.below),
            Item("Loose Carrots", grams: 640, centsPerKilo: 85, tax: 1),
            Item("Chocolate Digestives", 175),
            Item(.void, "VOID Chocolate Digestives", -175),
            Item("Washing Powder 40 Wash", 650).wrapped("Biological", below: true),
            Item(.discount, "Promo Discount", -100),
            Item("Sparkling Water 1L", 95, quantity: 3),
            Item(.deposit, "Bottle Deposit", 60),
            Item("Child Car Seat Cover", 1299, tax: 1)
        ],
        labels: .eng.with(subtotal: "Net"),
        payment: .card(detail: "VISA CONTACTLESS **** 1207")),

    Receipt(
        id: "spa-items-supermercado", language: .spa, destination: .items, font: "DejaVu Sans Mono", fontSize: 36,
        note: "tomatoes by weight, '3 x 1,25' above the item, '6 x' before a name, envase, anulación, descuento, A/B codes",
        merchant: "Supermercado La Plaza S.L.",
        header: ["C/ Real 14, 46001 Valencia", "NIF B46123456"],
        title: "FACTURA SIMPLIFICADA",
        date: Day(2026, 4, 11), dateStyle: .slashDMY, time: "11:48",
        reference: ("Ticket nº", "0193-552"),
        money: .euroES, pricing: .gross, taxRates: [.iva10, .iva21], taxCodes: ["A", "B"],
        items: [
            Item("Tomates", grams: 870, centsPerKilo: 239),
            Item("Yogur natural 4 uds", 125, quantity: 3).printed(.above),
            Item("Cerveza 33 cl", 65, quantity: 6, tax: 1),
            Item(.deposit, "Envase retornable", 60, tax: 1),
            Item("Detergente", 450, tax: 1),
            Item(.void, "Anulación Detergente", -450, tax: 1),
            Item("Aceite de oliva virgen extra", 895).wrapped("botella 1 L", below: true),
            Item(.discount, "Descuento socio", -40),
            Item("Pan de barra", 110)
        ],
        labels: .spa,
        payment: .card(detail: "VISA **** 5520")),

    Receipt(
        id: "fra-items-hypermarche", language: .fra, destination: .items, font: "DejaVu Sans Mono", fontSize: 36,
        note: "apples by weight, '6 x 0,45' under the item, consigne, annulation, remise, a wrapped name, A/B codes for 5,5% and 20%",
        merchant: "Hyper Marché du Port",
        header: ["2 quai de la Fosse, 44000 Nantes", "TVA FR45123456789"],
        date: Day(2026, 6, 27), dateStyle: .slashDMY, time: "16:03",
        reference: ("Ticket", "4471"),
        money: .euroFR, pricing: .gross, taxRates: [.tva55, .tva20], taxCodes: ["A", "B"],
        items: [
            Item("Pommes Golden", grams: 1120, centsPerKilo: 249),
            Item("Eau minérale 1,5 L", 45, quantity: 6).printed(.below),
            Item("portion 250 g", 459).wrapped("Comté AOP affiné 18 mois", below: false),
            Item("Lessive liquide", 799, tax: 1),
            Item(.void, "Annulation Lessive liquide", -799, tax: 1),
            Item("Vin rouge Bordeaux", 650, tax: 1),
            Item(.deposit, "Consigne bouteille", 20, tax: 1),
            Item(.discount, "Remise fidélité", -100, tax: 1),
            Item("Baguette", 110, quantity: 2)
        ],
        labels: .fra,
        payment: .card(detail: "CB SANS CONTACT")),

    Receipt(
        id: "msa-items-kedai", language: .msa, destination: .items, font: "DejaVu Sans Mono", fontSize: 36,
        note: "net prices with SR 6% and ZR 0% codes, '2 @ 11.90' under the item, chicken by weight, BATAL, diskaun, gas deposit",
        merchant: "Pasar Mini Sri Murni",
        header: ["No. 8, Jalan Pasar", "41000 Klang, Selangor", "No. GST: 001234567890"],
        date: Day(2026, 1, 23), dateStyle: .slashDMY, time: "20:41",
        reference: ("No. Resit:", "C0045127"),
        money: .ringgit, pricing: .net, taxRates: [.gst6, .gst0], taxCodes: ["SR", "ZR"],
        items: [
            Item("Beras Wangi 10kg", 3290, tax: 1),
            Item("Minyak Masak 2kg", 1190, quantity: 2, tax: 1).printed(.below),
            Item("Ayam Segar", grams: 1850, centsPerKilo: 890, tax: 1),
            Item("Sabun Pencuci Pinggan", 590).wrapped("Wangian Lemon 900ml", below: true),
            Item("Biskut Kraker", 450),
            Item(.void, "BATAL Biskut Kraker", -450),
            Item(.deposit, "Deposit Tong Gas", 5000),
            Item(.discount, "Diskaun Ahli", -200, tax: 1),
            Item("Kicap Manis", 380).wrapped("Botol 625ml", below: true)
        ],
        labels: .msa,
        payment: .card(detail: "MASTERCARD **** 6631"))
]
