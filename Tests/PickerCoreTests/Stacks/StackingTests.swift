import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The hash, the sharpness score and the stacking rule, on generated
/// scenes: a burst is one scene shifted and blurred by known amounts.
@Suite struct StackingTests {
  /// A scene of `seed`'s rectangles on a gradient, moved right by `shift`
  /// pixels and box-blurred `blur` pixels each way.
  static func scene(_ seed: UInt64, shift: Int = 0, blur: Int = 0, width: Int = 320, height: Int = 240)
    -> PixelImage
  {
    var random = seed &* 6_364_136_223_846_793_005 &+ 1
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    var grey = [Double](repeating: 0, count: width * height)
    for y in 0..<height { for x in 0..<width { grey[y * width + x] = Double(x + y) / Double(width + height) * 80 } }
    for _ in 0..<12 {
      let w = 20 + next(90), h = 20 + next(70), left = next(width - w) + shift, top = next(height - h)
      let level = Double(next(256))
      for y in top..<min(height, top + h) {
        for x in max(0, left)..<min(width, left + w) { grey[y * width + x] = level }
      }
    }
    if blur > 0 {
      var blurred = grey
      for y in 0..<height {
        for x in 0..<width {
          var sum = 0.0, count = 0.0
          for dy in -blur...blur {
            for dx in -blur...blur where (0..<width).contains(x + dx) && (0..<height).contains(y + dy) {
              sum += grey[(y + dy) * width + x + dx]
              count += 1
            }
          }
          blurred[y * width + x] = sum / count
        }
      }
      grey = blurred
    }
    let bytes = grey.flatMap { value -> [UInt8] in
      let v = UInt8(max(0, min(255, value)))
      return [v, v, v, 255]
    }
    return PixelImage(width: width, height: height, rgba: bytes)
  }

  @Test func theSameSceneMovedALittleHashesCloseAnotherFar() {
    let base = PhotoSignature(of: Self.scene(1))
    let moved = PhotoSignature(of: Self.scene(1, shift: 3))
    let blurred = PhotoSignature(of: Self.scene(1, blur: 2))
    let other = PhotoSignature(of: Self.scene(2))
    #expect(base.distance(to: moved) <= 10 && base.distance(to: blurred) <= 10)
    #expect(base.distance(to: other) > 10)
    // A smaller copy (another thumbnail size) hashes the same or nearly.
    let small = PhotoSignature(of: Self.scene(1).fitted(maxWidth: 160, maxHeight: 120))
    #expect(base.distance(to: small) <= 4)
  }

  @Test func sharpnessFallsWithBlur() {
    let scores = (0...3).map { PhotoSignature(of: Self.scene(3, blur: $0)).sharpness }
    #expect(scores == scores.sorted(by: >) && scores[0] > 2 * scores[3])
    let (normalised, sharpest) = StackingRule.scores(scores.reversed().map { PhotoSignature(hash: 0, sharpness: $0) })
    #expect(sharpest == 3 && normalised[3] == 100 && normalised[0] < 50)
  }

  func photo(_ seed: UInt64, at seconds: Double, shift: Int = 0, burst: String? = nil) -> StackingRule.Photo {
    StackingRule.Photo(taken: seconds, signature: PhotoSignature(of: Self.scene(seed, shift: shift)), burstID: burst)
  }

  @Test func aBurstStacksTheSameSceneLaterAndAnotherSceneAtOnceDoNot() {
    let rule = StackingRule()
    let listing = [
      photo(1, at: 0), photo(1, at: 0.3, shift: 2), photo(1, at: 0.6, shift: 4),  // a burst
      photo(1, at: 3600),  // the same scene an hour later
      photo(2, at: 3600.5),  // the camera turned: another scene within a second
      photo(5, at: 7200, burst: "b"), photo(6, at: 7200.2, burst: "b"),  // a burst id joins whatever the pictures
    ]
    #expect(rule.stacks(listing) == [0..<3, 3..<4, 4..<5, 5..<7])
    // Without dates nothing stacks on looks alone.
    let undated = listing.map { StackingRule.Photo(taken: nil, signature: $0.signature) }
    #expect(rule.stacks(undated).count == undated.count)
    #expect(StackingRule(maxGap: 4000).stacks(listing).first == 0..<4, "a longer gap takes the later shot in")
  }

  @Test func burstIDsFromFileNames() {
    #expect(BurstName.id(fromFileName: "00000IMG_00000_BURST20230614101500123_COVER.jpg") == "burst-20230614101500123")
    #expect(BurstName.id(fromFileName: "00001IMG_00001_BURST20230614101500123.jpg") == "burst-20230614101500123")
    #expect(BurstName.id(fromFileName: "20230614_101500_001.jpg") == "samsung-20230614_101500")
    #expect(BurstName.id(fromFileName: "20230614_101500.jpg") == nil)
    #expect(BurstName.id(fromFileName: "IMG_0001.JPG") == nil)
  }
}
