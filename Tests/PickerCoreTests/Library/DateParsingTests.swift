import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct DateParsingTests {
  let latest = CivilDate(year: 2026, month: 1, day: 1).dayNumber

  func label(_ date: TakenDate?) -> String? { date?.label }

  @Test func civilDatesRoundTripAndName() {
    for day in [-719_468, -1, 0, 1, 11_016, 19_522, 20_000, 2_932_896] {
      #expect(CivilDate(dayNumber: day).dayNumber == day)
    }
    #expect(CivilDate(year: 1970, month: 1, day: 1).dayNumber == 0)
    #expect(CivilDate(year: 2025, month: 6, day: 14).label == "Sat 14 Jun 2025")
    #expect(CivilDate(year: 2024, month: 2, day: 29).isValid)
    #expect(!CivilDate(year: 2023, month: 2, day: 29).isValid)
    #expect(CivilDate(year: 1900, month: 3, day: 1).label == "Thu 1 Mar 1900")
  }

  @Test func exifDateWithSubSecondsAndOffset() {
    let date = TakenDateParsing.exif("2023:06:14 10:15:00", subSeconds: "12", offset: "+02:00", latestDay: latest)
    #expect(label(date) == "2023-06-14 10:15:00.120 +02:00")
    #expect(date?.origin == .exif)
    #expect(date?.date == CivilDate(year: 2023, month: 6, day: 14))
    #expect(label(TakenDateParsing.exif("2023-06-14 10:15:00", latestDay: latest)) == "2023-06-14 10:15:00")
    #expect(TakenDateParsing.exif("2023:06:14 10:15:00", offset: "-05:30", latestDay: latest)?.offsetMinutes == -330)
  }

  @Test func impossibleExifDatesFallThrough() {
    for text in [
      "0000:00:00 00:00:00", "                   ", "", "1800:01:01 00:00:00", "2999:01:01 00:00:00",
      "2023:13:01 00:00:00", "2023:02:30 10:00:00", "2023:06:14 25:00:00", "abcd:ef:gh ij:kl:mn",
    ] {
      #expect(TakenDateParsing.exif(text, latestDay: latest) == nil, "\(text)")
    }
  }

  @Test func datesInFileNames() {
    let cases: [(String, String?)] = [
      ("IMG_20230614_101500.jpg", "2023-06-14 10:15:00"),
      ("VID_20230614_101500.mp4", "2023-06-14 10:15:00"),
      ("PXL_20230614_101500123.jpg", "2023-06-14 10:15:00.123"),
      ("00000IMG_00000_BURST20230614101500123_COVER.jpg", "2023-06-14 10:15:00.123"),
      ("Screenshot_2023-06-14-10-15-00.png", "2023-06-14 10:15:00"),
      ("2023-06-14 10.15.00.jpg", "2023-06-14 10:15:00"),
      ("IMG-20230614-WA0003.jpg", "2023-06-14"),
      ("DSC_1234.JPG", nil),
      ("P1020345.JPG", nil),
      ("IMG_12345678.jpg", nil),
      ("IMG_20991231_000000.jpg", nil),  // after the latest believable day
      ("scan_19850101.jpg", nil),  // before digital photos
    ]
    for (name, expected) in cases {
      let date = TakenDateParsing.fileName(Array(name.utf8), latestDay: latest)
      #expect(label(date) == expected, "\(name)")
      if expected != nil { #expect(date?.origin == .fileName) }
    }
  }

  @Test func dateQueries() {
    let today = CivilDate(year: 2025, month: 6, day: 14).dayNumber
    func span(_ text: String) -> String? {
      DateQuery.parse(text, today: today).map {
        CivilDate(dayNumber: $0.lowerBound).iso + ".." + CivilDate(dayNumber: $0.upperBound).iso
      }
    }
    #expect(span("2023") == "2023-01-01..2023-12-31")
    #expect(span("2023-06") == "2023-06-01..2023-06-30")
    #expect(span("2024-02") == "2024-02-01..2024-02-29")
    #expect(span("2023-06-14") == "2023-06-14..2023-06-14")
    #expect(span("jun 2023") == "2023-06-01..2023-06-30")
    #expect(span("June 2023") == "2023-06-01..2023-06-30")
    #expect(span("14 jun 2023") == "2023-06-14..2023-06-14")
    #expect(span("yesterday") == "2025-06-13..2025-06-13")
    #expect(span("today") == "2025-06-14..2025-06-14")
    #expect(span("2023-06-01..2023-06-14") == "2023-06-01..2023-06-14")
    #expect(span("2022..2023-03") == "2022-01-01..2023-03-31")
    #expect(span("2023-02-30") == nil)
    #expect(span("beach") == nil)
    #expect(span("2024..2023") == nil)
  }

  @Test func searchesSplitWordsFromDates() {
    let today = CivilDate(year: 2025, month: 6, day: 14).dayNumber
    let (words, days) = DateQuery.parseSearch("x-t4 jun 2023 beach", today: today)
    #expect(words == ["x-t4", "beach"])
    #expect(days == DateQuery.parse("2023-06", today: today))
    #expect(DateQuery.parseSearch("pixel 7", today: today).words == ["pixel", "7"])
    #expect(DateQuery.parseSearch("pixel 7", today: today).days == nil)
    #expect(DateQuery.parseSearch("2023-06-01..2023-06-14", today: today).words.isEmpty)
  }
}

@Suite struct ListedDateTests {
  func taken(_ text: String) -> TakenDate? {
    RemoteListing.takenDate(.object(["taken_at": .string(text)]))
  }

  @Test func listingsGiveTheirDatesTaken() {
    #expect(taken("2024-06-01T10:00:00")?.label == "2024-06-01 10:00:00")
    #expect(taken("2024-06-01T10:00:00Z")?.label == "2024-06-01 10:00:00 +00:00")
    #expect(taken("2024-06-01T10:00:00.25+02:00")?.label == "2024-06-01 10:00:00.250 +02:00")
    #expect(taken("2024-06-01T10:00:00")?.origin == .listing)
    #expect(taken("yesterday") == nil)
    #expect(taken("0000-00-00T00:00:00") == nil)
    let item = RemoteListing.item(
      from: .object([
        "id": .string("1"), "title": .string("a"), "path": .string("/p/a.jpg"), "taken": .string("2023-01-02T03:04:05"),
      ]), sourceID: "s", base: nil)
    #expect(item?.taken?.date == CivilDate(year: 2023, month: 1, day: 2))
  }
}
