import Testing

@testable import Datasync

@Suite struct InlineFirstListTests {
  @Test func elementsKeepTheirOrderWhetherInlineOrNot() {
    var list = InlineFirstList<Int>()
    #expect(list.isEmpty && list.count == 0 && Array(list).isEmpty)
    list.append(3)
    #expect(list.count == 1 && Array(list) == [3] && list[0] == 3)
    list.append(1)
    list.append(2)
    #expect(list.count == 3 && Array(list) == [3, 1, 2])
    #expect(list.contains(2) && !list.contains(4))
  }

  @Test func elementsAreReplacedAndSortedInPlace() {
    var list = InlineFirstList<Int>()
    for value in [5, 2, 9, 1] { list.append(value) }
    list[0] = 7
    list[2] = 0
    #expect(Array(list) == [7, 2, 0, 1])
    list.sort()
    #expect(Array(list) == [0, 1, 2, 7])
  }
}
