"""Whether a business claim's status is said to be so: not feared or foreseen ("I'm nervous about
it going missing", 怕快递丢了, "it will get lost"), not to come with what to do then (这单到了记得
签收), and not what keeps happening to deliveries in general, said as a reason for a wish
("parcels keep getting sent back to the depot"). `claims` asks it of each status it finds."""

from __future__ import annotations

from governed_memory.memory.write.extraction.cues import _rx, _w

#: A status feared or foreseen, not said to be so ("I'm nervous about it going missing",
#: "怕快递丢了", "这单到了记得签收一下"): read in what comes before the status.
_FEARED = _rx(
    r"怕|担心|万一|生怕|以免|免得|会不会",
    _w(r"worried|worries|worry|nervous|afraid|scared|anxious|in\s+case|what\s+if"),
)
#: A status that keeps happening to deliveries in general, said as the reason for a wish
#: ("parcels keep getting sent back to the depot", "stuff has gone missing there before",
#: 柜子老是超时收费): no claim about an order.
_HABITUAL = _rx(
    r"老是|总是|经常|(?<!一)动不动就?|每次都",
    _w(
        r"(?:parcels|packages|deliveries|stuff|things)\s+(?:\w+\s+){0,2}?(?:keep|kept|always|often"
        r"|tend\s+to)|keeps?\s+(?:getting|going|being)(?=\s+\w+\s+(?:back|missing|lost|stolen))"
        r"|(?:has|have)\s+(?:gone|went)\s+missing\s+(?:\w+\s+){0,2}?before"
    ),
)
#: What to do once the status comes about ("这单到了记得自己签收一下"): a status to come.
_THEN_DO = _rx(r"^[^，,。]{0,6}?(?:记得|别忘了?)", _w(r"^\s*,?\s*(?:remember|don't\s+forget)\s+to"))
_FORESEEN = _rx(r"(?:可能|也许)?会$", _w(r"(?:will|might|could|may|would)\s+(?:\w+\s+)?$"))


def said_to_be_so(norm: str, status_text: str) -> bool:
    """Whether `status_text`, found in `norm`, is said to be so (see the module's docstring)."""
    at = norm.find(status_text)
    if _FEARED.search(norm[max(0, at - 40) : at]) or _FORESEEN.search(norm[max(0, at - 16) : at]):
        return False
    if _THEN_DO.search(norm[at + len(status_text) :]):
        return False
    return not _HABITUAL.search(norm[max(0, at - 30) : at + len(status_text) + 20])
