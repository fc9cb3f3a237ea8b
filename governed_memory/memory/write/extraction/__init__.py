"""Extraction: what an utterance says that is worth remembering, as candidates.

`Extractor` is the protocol; `RuleExtractor` is the offline, deterministic default for Chinese
and English. It covers the profile keys of the scenario SPEC (notification channel and quiet
hours, reply language, timezone, preferred contact hours), claims about business entities
(orders, payments, shipments, refunds), and explicit requests to remember something; it tells a
standing wish from a one-off (`temporary`), a negation (which closes the value it denies), a
statement about someone else (`third_party`), and chit-chat (nothing extracted).

How `RuleExtractor` reads an utterance:

* It is cut into sentences (。！？!?；; line breaks, ". ") and clauses (，,); a clause is cut
  again at 但是/不过/可是/但/but/however into parts. Preferences and self-statements are read
  per part, business claims and requests to remember per clause.
* A part names a preference only with a cue that it is a wish about contacting the user
  ("以后", "请", "希望", "通知我", "联系我", "text me", "prefer", "please", "by email", ...);
  a bare mention ("短信收到了，谢谢", "你们的邮件系统是不是坏了") gives nothing.
* Judgement calls, each a rule:
  - A question is not a wish ("能发短信吗？", "can you email me?") unless it carries a
    standing marker ("可以以后发短信给我吗", "could you text me from now on?"), asks to switch
    ("能改成邮件吗"), or asks to stop ("能不能别再打电话了"); a polite tail ("…好吗", "…可以吗",
    "…, ok?") makes a request, not a question.
  - One-off markers (这次, 今天, 暂时, 先…吧, 这单, this time, just this once, for now, today,
    for this order, ...) make a wish `temporary` unless a standing marker (以后, 每次, from now
    on, always, ...) is also there; so does a request about one specific thing (发票, 合同,
    截图, "email me the invoice", "call me back"). A one-off marker in an earlier clause of the
    same sentence carries over ("just this once, email me the invoice").
  - Who a wish is about: the person it is addressed to ("给我妈打电话", "text my husband") if
    any, else its subject ("我妈妈喜欢短信通知", "he wants texts"). A subject that includes the
    user ("我和我妈都喜欢短信", "my wife and I prefer email", "我们") counts as the user; a
    third person the user merely mentions does not change that ("我老公说以后给我发短信").
  - Within one part, a channel after 比起/不如/rather than/instead of is the one not chosen;
    with two chosen channels and no priority word (优先, 首选, prefer) the part is ambiguous
    and gives nothing ("短信或者邮件都行").
  - A negation and a positive wish for the same key in one utterance: only the positive
    candidate is emitted ("别发短信了，改成邮件", "not SMS, email please").
  - A clause that names hours reads them as quiet hours when it denies contact
    ("晚上10点以后别打扰我", "no calls after 10pm") and as preferred contact hours otherwise
    ("只在工作时间联系我"); the channel named inside such a clause is not extracted on its own.
  - Several clauses with the same key merge into one candidate: a channel and quiet hours
    become one notification.preference value; for two different values the stronger (then
    the later) wins.
  - Business claims need an entity (订单, 快递, 退款, 扣款, order, package, refund, charged, ...)
    and an asserted status ("三天没发货", "已签收", "hasn't arrived", "charged twice"); a
    status asked about ("到哪了？", "what's the status?") or wished for ("希望尽快发货",
    "我不想要退款") is not a claim.
  - Self-statements are read conservatively: 我是…/我喜欢…/我不吃…/我住在…/我的…是…/I'm a…/
    I live in…/I work…/my … is …; episodes and complaints ("我买的耳机左边没声音", "快递太慢了")
    give nothing. A statement of the same shape about someone else is skipped as third_party.
  - "我现在住在东京" / "I live in Berlin" are self-statements, never profile.timezone; only an
    explicit zone statement (时区, 按…时间, "my timezone is", "I'm on … time") is.

The package: `models` (what an extractor returns, the `Extractor` protocol, the confidences),
`cues` (the cue tables of clauses and preferences), `clauses` (sentences, clauses and parts,
questions, one-off and standing markers, whom a part is about, negation), `preferences` (channel,
language, timezone, quiet hours and contact hours), `claims` (business claims, requests to
remember, self-statements and their third-party look-alikes, with their cues), `wishes`
(standing wishes about how the user is served: a carrier, a delivery time kept free, packaging,
what is recommended, how replies are written), `relayed` (what reaches the agent by way of
someone else: a statement relayed about the customer, a wish passed on to whoever serves them),
`arrivals` (how a delivery is met: a call when the courier gets there, what the courier is told),
`unclaimed` (a status feared, to come, or what keeps happening: no claim),
`contents` (the
content text of a profile candidate) and `extractor` (`RuleExtractor`: the reading order and the
assembly of profile candidates).
"""

from governed_memory.memory.write.extraction.extractor import RuleExtractor
from governed_memory.memory.write.extraction.models import (
    CLAIM,
    REMEMBER,
    SELF_STATEMENT,
    STRONG,
    WEAK,
    ExtractedCandidate,
    Extraction,
    Extractor,
    Skipped,
    SkipReason,
)

__all__ = [
    "CLAIM",
    "REMEMBER",
    "SELF_STATEMENT",
    "STRONG",
    "WEAK",
    "ExtractedCandidate",
    "Extraction",
    "Extractor",
    "RuleExtractor",
    "SkipReason",
    "Skipped",
]
