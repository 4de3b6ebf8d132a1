"""Irreversible operations in a request, as classes: a verb class times an object class.

The classifier's CRITICAL rules (``core/classifier.py``) come from here. Each rule is written
for a class of operations, not for a phrase, so that a new phrasing of the same operation
matches: a verb of the class, a short gap (at most four words, none of them a preposition
that would start another phrase: "remove the background *from* cat.jpeg" is not a deletion of
the file), then an object of the class. Where the classes come from:

| rule | verb class | object class | source of the class |
| --- | --- | --- | --- |
| ``critical.delete_data`` | delete, remove, erase, wipe, purge, destroy, trash, retract, overwrite; 删除, 删掉, 移除, 清除, 销毁, 撤回 | stored data: files (also by a file name), documents, folders, repositories, records, rows, columns, tables, databases, accounts, messages, e-mails, events, contacts, backups, logs, users; "delete" alone also photos, posts, comments, notes, drafts, reports | OWASP ASVS V8 (data protection: deletion) and CWE-1390/CWE-285 examples of unauthorised deletion; AgentDojo's ``delete_file``/``delete_email`` and BFCL's ``rm``/``delete_message`` tools name the same objects |
| ``critical.move_money`` and kin | transfer, wire, send, pay, remit, refund, deposit, withdraw, top up, fund; 转账, 汇款, 把钱转到, 充值, 提现 | an amount, money, funds, an account, an IBAN; the recipient, payee or IBAN of a payment or standing order (changing who receives money) | PSD2's payment operations (credit transfer, standing order, change of payee) |
| ``critical.disclose_secret`` | send, e-mail, forward, post, upload, share, publish; 发送, 发到, 转发 | personal or secret data (passport, ID, social security, card and bank account numbers, CVV, passwords, security and one-time codes, keys, tokens, credentials, medical records) going to an address or a third party | GDPR Art. 9 and NIST SP 800-122 (PII), OWASP Top 10 A02 (secrets) |
| ``critical.revoke_access`` | remove, kick, ban ... *from* a workspace, channel, team, organisation; revoke; deactivate, suspend, close an account; change or reset someone's password, 2FA | users, access, keys, tokens, credentials | OWASP ASVS V2/V3 (credential and session management) |
| ``critical.production`` | force push, ``git reset --hard``, terminate, decommission, destroy, tear down; truncate; factory reset | instances, servers, clusters, environments, tables, logs; ``terraform destroy``, ``kubectl delete`` | the tools' own manuals (git-push(1) ``--force``, terraform destroy, kubectl delete) |

A question *about* such an operation is not the operation: a sentence framed as a how-to or
an explanation ("How do I delete all rows from a table in SQL?", "what is the command to
...", "explain ...", 如何删除..., 怎么转账) gives no CRITICAL match, and
:func:`read_irreversible` reports it as ``asked_about`` so the classifier can call it a QUERY.
Code asked for is not the operation either: "write a script that removes duplicate rows",
"an SQL query to delete old rows", 写一个删除日志的脚本 ask for an artefact (GENERATE), and
quoted text is mentioned, not asked for. Requests phrased as questions to the agent ("Can you pay my bill?", 能帮我付一下账单吗) are
requests, not questions about: the frame is a question word at the start of the sentence or a
"how to" inside it, never "can you".

What is deliberately *not* CRITICAL (ACTION), as in the shared labelled corpus: deleting an
entry of the user's own list (a todo item, a reminder, a watchlist entry: its content is in the
request), cancelling a booking or an order, buying or booking (goods for money), sharing a file
with a colleague, inviting a user.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qgs_worker.core.rules.lazy_prescan import LazyPrescan

__all__ = ["CRITICAL_RULE_NAMES", "IrreversibleReading", "read_irreversible"]


def _compile(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.IGNORECASE | re.MULTILINE)


# --- shared pieces (English) ---------------------------------------------------------------

# Up to four words between a verb and its object. A word that starts another phrase ("from",
# "to", "with", "that") ends the gap, so the object is the verb's, not a later phrase's. "all
# of" / "each of" are quantifiers, not a new phrase.
_STOP = (
    r"(?:from|of|in|into|on|onto|to|at|for|with|by|about|that|which|who|whose|where|when|if"
    r"|because|but|using|via|so|than|then)"
)
_GAP = (
    r"(?:(?:all|each|every|any|some|both|most|many|one|none|two|three|four|five|several|few)"
    r"\s+of\s+|(?!" + _STOP + r"\b)[\w'\"$€£.,:#-]+\s+){0,4}?"
)
_LONG_GAP = r"[^.!?\n]{0,80}?"  # the rest of the sentence, bounded

_DELETE_VERB = (
    # "-s" forms too (a tool's docstring: "Deletes the email"), not "-ed" (a report of the past).
    r"\b(?:delete|deletes|deleting|remove|removes|removing|erase|erases|erasing|wipe|wipes|wiping"
    r"|purge|purges|purging|destroy|destroys|destroying|trash|trashes|shred|nuke|discard"
    r"|get\s+rid\s+of|retract|unsend|overwrite|overwrites|overwriting)\b"
)
_STRICT_DELETE_VERB = (
    r"\b(?:delete|deletes|deleting|erase|erases|erasing|purge|purges|purging|destroy|destroys"
    r"|destroying|trash)\b"
)
_DATA = (
    r"(?:files?|documents?|docs|folders?|director(?:y|ies)|repos?|repositor(?:y|ies)|records?"
    r"|rows?|columns?|tables?|databases?|dbs?|schemas?|collections?|indexe?s|indices|accounts?"
    r"|profiles?|messages?|e-?mails?|mails|inbox(?:es)?|mailbox(?:es)?|conversations?"
    r"|chat\s+history|history|events?|meetings?|appointments?|contacts?|backups?|snapshots?"
    r"|logs?|buckets?|volumes?|partitions?|branch(?:es)?|attachments?|data|datasets?|users?"
    r"|members?|trash|recycle\s+bin|spreadsheets?)\b"
)
# Objects that "remove" alone does not make a deletion of ("remove the image from the slide" is
# an edit); "delete" does.
_CONTENT = (
    r"(?:photos?|pictures?|images?|videos?|recordings?|posts?|tweets?|comments?|notes?|drafts?"
    r"|reports?|threads?|chats?|pages?|articles?|issues?)\b"
)
_FILE_NAME = (
    r"['\"“‘]?[\w~./-]*\w\.(?:txt|pdf|docx?|xlsx?|csv|pptx?|json|ya?ml|md|py|js|ts|sh|log|zip"
    r"|tar|gz|tgz|png|jpe?g|gif|mp4|mov|db|sqlite3?|sql|bak|lnk|html?|xml|conf|cfg|ini|key|pem)\b"
)
_DETERMINER = r"(?:(?:the|my|our|your|this|that|these|those|a|an)\s+)?(?:file\s+)?"

_AMOUNT = (
    r"(?:[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:k\s+)?(?:usd|eur|gbp|chf|cny|rmb|jpy|dollars?|euros?"
    r"|pounds?|yuan|francs?|btc|eth|bucks|quid|grand)\b|\b(?:usd|eur|gbp|chf|cny|rmb|jpy)\s?\d)"
)
# Payments are not here: "move the payment date" is no transfer; payment_order reads them.
_MONEY = (
    r"(?:" + _AMOUNT + r"|\b(?:money|funds?|cash(?!\s+flow)|bitcoin|crypto|rent|salary|wages"
    r"|tuition|deposit|savings(?!\s+(?:accounts?|plans?|goals?|rates?))|paycheck|allowance|pension)\b)"
)
_IBAN = r"\b[a-z]{2}\d{2}[a-z0-9]{8,30}\b"
_ACCOUNT = r"(?:accounts?|wallets?|iban|savings|checking|portfolio|trading\s+funds|balance)\b"
_PAYMENT = (
    r"(?:payments?|transactions?|transfers?|wire|remittance|standing\s+orders?|direct\s+debits?"
    r"|refunds?|reimbursements?|payouts?|chargebacks?"
    r"|subscriptions?\s+payments?|rent\s+payments?)\b"
)
_PAYEE = r"(?:payees?|beneficiar(?:y|ies)|iban|bank\s+(?:details|account(?:\s+number)?))\b"

_SEND = (
    r"\b(?:send|sending|e-?mail|forward|post|upload|share|publish|leak|give|hand\s+over|reveal"
    r"|disclose|text|sms|message|dm|whatsapp|fax|read\s+out)\b"
)
_SECRET = (
    r"(?:passport(?:\s+(?:numbers?|details|data|info(?:rmation)?))?|passport_number"
    r"|(?:national\s+)?id(?:entity)?\s+(?:numbers?|cards?|documents?)|id_number"
    r"|social\s+security(?:\s+numbers?)?|\bssns?\b|(?:credit|debit|bank)\s+cards?(?:\s+numbers?)?"
    r"|card\s+numbers?|\bcvv\b|\bcvc\b|bank\s+account(?:\s+(?:numbers?|details))?"
    r"|account\s+numbers?|routing\s+numbers?|passwords?|passcodes?|pin\s+(?:codes?|numbers?)"
    r"|security\s+codes?|verification\s+codes?|one[- ]time\s+(?:codes?|passwords?)|\botps?\b"
    r"|2fa\s+codes?|auth(?:entication)?\s+codes?|api\s+keys?|secret\s+keys?|private\s+keys?"
    r"|access\s+(?:keys?|tokens?)|\btokens?\b|credentials|medical\s+(?:records?|history|data"
    r"|information|reports?)|health\s+(?:records?|data|information)|diagnos[ie]s"
    r"|date\s+of\s+birth|tax\s+(?:id|numbers?)"
    r"|(?:bank(?:ing)?|online\s+banking|account|e-?mail|my)\s+log-?ins?(?:\s+(?:details|credentials|info))?"
    r"|log-?in\s+(?:details|credentials|info(?:rmation)?))"
)
# Somewhere to send to that is not the user: an address, a web site, "to <someone>".
_RECIPIENT = (
    r"(?:[\w.+-]+@[\w-]+\.[\w.-]+|\b(?:https?://|www\.)\S+|\bwebsite\b|\+\d[\d ().-]{6,}\d"
    r"|\bto\s+(?:(?:my|his|her|their|our|the|a|an|this|that)\s+)?(?:[\w-]+'s\s+)?(?:[\w-]+\s+)?"
    r"(?:e-?mail|address"
    r"|inbox|wife|husband|partner|friend|colleague|boss|manager|client|customer|contact|number"
    r"|phone|channel|group|chat|forum|server)\b|\bto\s+(?-i:[A-Z][a-z]+)\b)"
)
_MEMBERSHIP = (
    r"(?:slack|workspace|team|organi[sz]ation|org|channel|group|server|project|repo(?:sitory)?"
    r"|company|tenant|admins?|access|account|guild|mailing\s+list)\b"
)

# --- shared pieces (Chinese) ---------------------------------------------------------------
_ZH_REST = r"[^。！？!?\n]"
_ZH_DELETE = r"(?:删除|删掉|删了|删去|移除|清除|清空|抹掉|抹去|销毁|撤回|粉碎|覆盖(?!率|范围|面))"
_ZH_DATA = (
    r"(?:文件|文档|目录|文件夹|仓库|记录|数据|邮件|消息|聊天记录|日程|会议|联系人|照片|图片|视频"
    r"|备份|快照|日志|数据表|数据库|账户|账号|帖子|评论|分支|表格|回收站|垃圾箱|废纸篓)"
)
_ZH_SECRET = (
    r"(?:护照|身份证|社保号|银行卡|银行账号|银行账户|信用卡|卡号|CVV|安全码|验证码|密码|密钥|口令|令牌"
    r"|凭证|病历|医疗记录|诊断)"
)
_ZH_SEND = r"(?:发送|发到|发给|发至|转发|告诉(?!我)|分享给|上传|泄露|透露|寄给|提供给|邮件发)"
# Not 款 or 元 alone: 条款 is a clause, 单元 a cell.
_ZH_MONEY = r"(?:钱|资金|余额|款项|货款|房租|租金|美元|欧元|英镑|人民币|\d\s?(?:元|块))"


@dataclass(frozen=True)
class _Rule:
    name: str
    pattern: re.Pattern[str]
    needs: str | None = None
    """A part every match of ``pattern`` contains (a key of ``_NEEDS``): where the pre-scan
    finds it may start nowhere, the rule cannot match and is not tried."""


def _rule(name: str, regex: str, *, needs: str | None = None) -> _Rule:
    return _Rule(name, _compile(regex), needs)


_RULES: tuple[_Rule, ...] = (
    # Stores and disks, by their commands and names.
    _rule(
        "critical.drop_store",
        r"\bdrop\s+(?:the\s+|a\s+|all\s+|every\s+)?(?:[\w-]+\s+){0,2}?"
        r"(?:database|db|table|schema|collection|keyspace|index)s?\b",
    ),
    _rule("critical.sql_delete_without_where", r"\bdelete\s+from\s+[\w.\"`]+\s*(?:;|$)"),
    _rule("critical.rm_rf", r"\brm\s+-[a-z]*(?:rf|fr)[a-z]*\s+(?:--no-preserve-root\s+)?[/~*.$]"),
    _rule(
        "critical.disk_wipe",
        r"\bmkfs\b|\bdd\s+if=\S+\s+of=/dev/|\bshred\b|\bfactory\s+reset\b"
        r"|\bformat\s+(?:the\s+|my\s+)?(?:c:|hard\s+drive|disk|drive|partition)"
        r"|\bwipe\b\s+" + _GAP + r"(?:servers?|disks?|drives?|machines?|devices?|phones?|laptops?"
        r"|computers?|partitions?|volumes?|everything)\b",
    ),
    # Deleting data: all of it, permanently, or a named object of the data class.
    _rule(
        "critical.delete_all",
        r"\b(?:delete|remove|erase|wipe|purge|destroy|clear|empty|drop)\b\s+"
        r"(?:(?:the|my|our|your|their|of|out|off|away)\s+){0,2}(?:all|every|everything|entire|whole)\b",
    ),
    _rule(
        "critical.delete_all_passive",
        r"\b(?:all|every)\s+(?:of\s+)?(?:the\s+|my\s+|our\s+)?\w+\s+(?:should\s+be\s+|must\s+be\s+"
        r"|to\s+be\s+)?(?:deleted|removed|erased|wiped|purged)\b",
    ),
    _rule(
        "critical.irreversible",
        r"\bpermanently\s+(?:delete|remove|erase|destroy)|\b(?:delete|remove|erase|destroy)\w*\s+"
        + _GAP
        + r"permanently\b|\birreversibl|\bcannot\s+be\s+undone\b",
    ),
    _rule(
        "critical.delete_data",
        _DELETE_VERB
        + r"\s+"
        + _GAP
        + _DATA
        + "|"
        + _STRICT_DELETE_VERB
        + r"\s+"
        + _GAP
        + _CONTENT
        + "|"
        + _DELETE_VERB
        + r"\s+"
        + _DETERMINER
        + _FILE_NAME
        + r"|\breplace\s+(?:the\s+)?(?:entire\s+|whole\s+)?contents?\s+of\b"
        r"|\brm\s+(?:-[a-z]+\s+)*(?!-)[\w~./*-]+|\b(?:del|erase)\s+(?:/[a-z]\s+)*[\"']?[\w%~.:\\/-]+\.\w+"
        r"|\brmdir\s+/s\b|\bremove-item\b"
        r"|\bempty\s+(?:the\s+|my\s+|our\s+)?(?:trash|recycle\s+bin|inbox|mailbox|bucket|table"
        r"|database|folder|directory)\b",
    ),
    # Money: moving it, or changing who receives it.
    _rule(
        "critical.move_money",
        r"\b(?:wire|wires|transfer|transfers|send|sends|remit|pay|pays|move|moves|refund|refunds"
        r"|deposit|deposits|withdraw|withdraws|venmo|zelle|paypal|cash\s*app)\b\s+"
        + _GAP
        + _MONEY
        + r"|\b(?:send|transfer|wire|pay|remit|move)\b"
        + _LONG_GAP
        + r"\bto\s+(?:the\s+)?(?:account\s+|iban\s+)?"
        + _IBAN
        + r"|\b(?:send|pay|give|transfer)\s+(?:\w+\s+)?back\s+(?:the\s+|what\s+)?(?:difference|rest"
        r"|remainder|change|excess|overpayment|amount|balance|money)\b",
    ),
    _rule(
        "critical.fund_account",
        r"\b(?:fund|top\s+up|replenish|recharge|refill)\s+(?:(?:my|the|your|our|his|her|their|this"
        r"|that)\s+)?(?:[\w-]+\s+){0,2}?"
        + _ACCOUNT
        + r"|\b(?:deposit|withdraw|allocate|inject|infuse"
        r"|cash\s+out)\b"
        + _LONG_GAP
        + r"\b(?:into|to|from|out\s+of)\s+(?:(?:my|the|your|our|his|her|their|this|that|an?)\s+)?"
        r"(?:[\w-]+\s+){0,2}?" + _ACCOUNT,
    ),
    _rule(
        "critical.pay",
        # "pay attention" / "pay more attention" is not a payment.
        r"(?:^|[.!?;:,()\n]\s*|\b(?:and|then|also|please|pls|kindly|now)\s+"
        r"|\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:also\s+)?)"
        r"pay\b(?!\s+(?:\w+\s+)?attention)|\bpay\s+(?:the|my|our|this|that|for|off|back)\b"
        r"|\brefund\s+(?:me|him|her|them|us|the|my|our|that|this|what|[a-z]{2}\d{2}[a-z0-9]{8,30})\b",
    ),
    _rule(
        "critical.payment_order",
        r"\b(?:make|makes|send|sends|schedule|schedules|set\s+up|create|creates|initiate|execute"
        r"|issue|issues|grant|grants"
        r"|process|approve|update|updates|change"
        r"|modify|adjust|edit|amend|alter|increase|raise|lower|reduce|redirect)\b\s+"
        + _GAP
        + _PAYMENT
        + r"|\b(?:change|modify|update|set|switch|replace|redirect|edit|amend|alter)\b\s+"
        + _GAP
        + r"(?:"
        + _PAYEE
        + r"|recipients?\b(?="
        + _LONG_GAP
        + r"\b(?:pay|payments?|transfers?|transactions?|standing|recurring|scheduled|money|rent)\b))",
    ),
    # Personal or secret data going to an address or a third party.
    _rule(
        "critical.disclose_secret",
        _SEND + _LONG_GAP + _SECRET + r"(?=" + _LONG_GAP + _RECIPIENT + r")"
        r"|"
        + _SEND
        + _LONG_GAP
        + _RECIPIENT
        + _LONG_GAP
        + _SECRET
        # the recipient as the indirect object: "email Bob the code", "send her my PIN"
        + r"|\b(?:send|e-?mail|forward|give|text|message)\s+(?:(?-i:[A-Z][a-z]+)|him|her|them"
        r"|(?:my|the|our|this|that)\s+(?:wife|husband|partner|friend|colleague|boss|manager|lawyer"
        r"|accountant|contractor|vendor|supplier|landlord|agent|caller|stranger|recruiter"
        r"|plumber|technician|client|customer))\b"
        + _LONG_GAP
        + _SECRET
        + r"|"
        + _SECRET
        + _LONG_GAP
        + _SEND
        + _LONG_GAP
        + _RECIPIENT,
        # Each branch holds a secret: the lazy gaps before it cost ~0.2 ms a request of 400
        # characters, most of which name no secret at all (bench/README.md, issue 14).
        needs="secret",
    ),
    _rule(
        "critical.bulk_disclosure",
        _SEND + r"[^.!?\n]*?\b(?:all|every)\s+(?:single\s+)?(?:of\s+)?(?:the\s+|my\s+|our\s+)?"
        r"(?:[\w-]+\s+){0,3}?(?:messages|emails|e-mails|email|files|documents|records|data"
        r"|contacts|information|info|content|conversations|history|passwords|transactions)\b"
        r"|\b(?:all|every)\s+(?:[\w-]+\s+){0,3}?(?:messages|emails|files|documents|records|data"
        r"|contacts|information|conversations)\b[^.!?\n]*?" + _SEND + _LONG_GAP + _RECIPIENT,
    ),
    # Access: removing a user, revoking, changing someone's credentials, granting root.
    _rule(
        "critical.revoke_access",
        r"\b(?:remove|kick|ban|expel|evict|boot|offboard)\b\s+(?:[\w@.'-]+\s+){1,5}?from\s+"
        r"(?:(?:the|my|our|this|that|his|her|their)\s+)?(?:[\w'-]+\s+){0,2}?"
        + _MEMBERSHIP
        + r"|\brevok(?:e|es|ing)\b|\b(?:deactivate|suspend|disable|close|terminate|lock|freeze"
        r"|ban)\b\s+" + _GAP + r"(?:user\s+)?(?:accounts?|users?|members?)\b",
    ),
    _rule(
        "critical.credentials",
        r"\b(?:change|reset|update|set|modify|disable|remove|turn\s+off)\s+"
        r"(?:the\s+|my\s+|his\s+|her\s+|their\s+|your\s+|\w+'s\s+)?(?:account\s+|user\s+|login\s+)?"
        r"(?:passwords?|passcodes?|credentials|2fa|mfa|two-factor(?:\s+authentication)?"
        r"|security\s+questions?|recovery\s+(?:e-?mail|phone))\b"
        r"|\b(?:send|share|forward|post|give|email|leak|reveal)\b\s+"
        + _GAP
        + r"(?:passwords?|api\s+keys?|secret\s+keys?|private\s+keys?|credentials|security\s+codes?"
        r"|2fa\s+codes?|ssn|social\s+security)",
    ),
    _rule(
        "critical.privilege",
        r"\b(?:grant|give)\b\s+"
        + _GAP
        + r"(?:admin|root|sudo|owner|superuser)\s+(?:access|rights|privileges?|role)"
        r"|\bdisable\s+(?:the\s+)?(?:firewall|2fa|mfa|two-factor|antivirus|audit\s+log)"
        r"|\bchmod\s+(?:-r\s+)?777\s+/",
    ),
    # Production changes that cannot be undone.
    _rule(
        "critical.production",
        r"\bgit\s+push\s+(?:[^\s;&|]+\s+)*?(?:-f|--force)\b|\bforce[- ]push|\bgit\s+reset\s+--hard\b"
        r"|\bgit\s+clean\s+-\w*f|\bterraform\s+destroy\b|\bkubectl\s+delete\b"
        r"|\bhelm\s+(?:uninstall|delete)\b|\bdocker\s+(?:system|volume)\s+prune\b"
        r"|\b(?:terminate|decommission|destroy|tear\s+down|teardown|deprovision|nuke|delete)\b\s+"
        + _GAP
        + r"(?:instances?|servers?|clusters?|vms?|nodes?|environments?|stacks?|deployments?"
        r"|namespaces?|machines?|hosts?|infrastructure|fleet)\b"
        r"|\btruncate\s+" + _GAP + r"(?:tables?|translogs?|logs?|index(?:es)?|collections?"
        r"|partitions?)\b|\btruncate\s+table\b",
    ),
    # Chinese.
    _rule(
        "critical.delete_all_zh",
        r"(?:删除|删掉|删了|清空|清除|抹掉|销毁|移除).{0,12}?(?:所有|全部|一切|整个|全体)"
        r"|(?:所有|全部|整个).{0,12}?(?:删除|删掉|清空|清除|销毁)",
    ),
    _rule(
        "critical.drop_store_zh",
        r"删库|(?:删除|删掉|清空|销毁)(?:整个)?(?:数据库|数据表|表)(?![中里内的])",
    ),
    _rule("critical.disk_wipe_zh", r"格式化.{0,4}(?:磁盘|硬盘|分区|[a-z]盘|服务器)|恢复出厂设置"),
    _rule("critical.irreversible_zh", r"永久删除|彻底删除|不可恢复|不可逆|无法撤销"),
    _rule(
        "critical.delete_data_zh",
        _ZH_DELETE
        + r"[^。！？!?\n，,]{0,12}?"
        + _ZH_DATA
        + "|"
        + _ZH_DATA
        + _ZH_REST
        + r"{0,10}?"
        + _ZH_DELETE,
    ),
    _rule(
        "critical.disclose_secret_zh",
        _ZH_SEND
        + _ZH_REST
        + r"{0,25}?"
        + _ZH_SECRET
        + "|"
        + _ZH_SECRET
        + _ZH_REST
        + r"{0,25}?"
        + _ZH_SEND
        + r"|(?:发送|发到|发给|转发|上传|分享|导出|公开|泄露|邮寄)"
        + _ZH_REST
        + r"*?(?:(?:所有|全部)(?:的)?.{0,6}?(?:信息|数据|邮件|消息|文件|记录|联系人|资料))"
        r"|(?:所有|全部)(?:的)?.{0,6}?(?:信息|数据|邮件|消息|文件|记录|联系人|资料)"
        + _ZH_REST
        + r"*?(?:发送|发到|发给|转发|上传|分享|导出|公开|泄露|邮寄)",
    ),
    # 转账/汇款/打款 are always money moving; 支付/付款 only where a request puts them (a clause
    # start or after 请/帮我/给/向), since 支付 is also a noun ("每年支付1000美元的投资").
    _rule(
        "critical.move_money_zh",
        r"转账|汇款|打款|转钱|退款|充值|提现|入金|出金|付(?:钱|账单|房租|租金|费)|付.{0,3}账单"
        r"|(?:^|[，。,；;！!\s]|帮我|请|给|向|替我|然后|并|再|要)(?:支付|付款|缴费|缴纳|还款)"
        r"|" + _ZH_MONEY + _ZH_REST + r"{0,6}?(?:转|汇|打|付|退|存)(?:到|给|进|入|还|回)"
        # Not 付 before an amount: "每年支付1000美元的投资" describes an investment.
        r"|(?:转|汇|打)了?\s?\d[\d,.]*\s?万?(?:元|块|美元|欧元|英镑|人民币)"
        r"|(?:转|汇|打|存)(?:到|给|入|进)" + _ZH_REST + r"{0,12}?"
        r"(?:账户|账号|户头|卡)|退(?:给|还)"
        + _ZH_REST
        + r"{0,10}?"
        + _ZH_MONEY
        + r"|(?:修改|更改|更新|变更|调整|换)"
        + _ZH_REST
        + r"{0,12}?(?:收款人|收款方|收款账户"
        r"|收款账号|受益人|定期(?:付款|转账|汇款)|自动(?:扣款|付款|转账))"
        r"|(?:收款人|收款方|收款账户|受益人|定期(?:付款|转账)|自动扣款)"
        + _ZH_REST
        + r"{0,12}?(?:改成|改为|换成|更新|修改|更改|调整)",
    ),
    _rule(
        "critical.revoke_access_zh",
        r"从"
        + _ZH_REST
        + r"{0,12}?(?:工作区|工作空间|频道|群组|群|团队|组织|项目|仓库|slack)"
        + _ZH_REST
        + r"{0,8}?(?:移除|移出|踢出|删除|删掉|除名)|(?:移除|踢出|踢掉|封禁|禁用|停用|注销|冻结)"
        + _ZH_REST
        + r"{0,10}?(?:成员|用户|员工|账号|账户|管理员)|(?:撤销|吊销|收回|作废)"
        + _ZH_REST
        + r"{0,8}?(?:权限|访问|密钥|令牌|token|证书|授权)",
    ),
    _rule(
        "critical.credentials_zh",
        r"(?:修改|重置|更改|更新)(?:\w{0,6})?密码|密码.{0,4}(?:改成|改为|设为|设置为|换成)"
        r"|(?:发送|分享|告诉(?!我)|转发).{0,10}(?:密码|密钥|验证码|凭证)|(?:管理员|root)权限",
    ),
    _rule(
        "critical.production_zh",
        r"强制推送|(?:销毁|下线|终止|关停|释放|删除)"
        + _ZH_REST
        + r"{0,8}?(?:实例|服务器|集群|生产环境|节点|虚拟机)|清空"
        + _ZH_REST
        + r"{0,6}?(?:生产|线上)",
    ),
)

CRITICAL_RULE_NAMES: tuple[str, ...] = tuple(rule.name for rule in _RULES)
"""Every rule's name, in the order they are tried."""

# A sentence that asks *about* an operation: a question or explanation frame at its start, or
# a how-to anywhere in it. "Can you ...", "Could you ...", "能帮我...吗" are requests, not this.
_ASKS_ABOUT = _compile(
    r"^\W*(?:(?:hey|hi|hello|so|ok|okay|well|quick\s+question)\W+)?"
    r"(?:how\b|what\b|what's|which\b|why\b|is\s+(?:it|there)\b|are\s+there\b"
    r"|should\s+(?:i|we)\b|can\s+(?:i|we)\b|could\s+(?:i|we)\b|do\s+(?:i|we)\b|does\b"
    r"|explain\b|describe\b|tell\s+me\s+(?:how|what|why|whether|if)\b|show\s+me\s+how\b"
    r"|i\s+(?:want|need|would\s+like)\s+to\s+(?:know|understand|learn)\b|i\s+wonder)"
    r"|\bhow\s+(?:do|can|could|should|would)\s+(?:i|we|you|one)\b|\bhow\s+to\b"
    r"|\bthe\s+(?:command|syntax|query|sql|code|way)\s+(?:to|for)\b"
    r"|如何|怎么|怎样|怎麽|为什么|为何|什么(?:命令|指令|语句|意思)|的方法|教我"
)
# Quoted text is mentioned, not asked for ("classify the intent of 'I want to transfer funds'",
# a message to send that reads "delete all records"). A quote opens after a non-word character
# and closes before one, so the apostrophes of "user's" and "I'm" are not quotes.
_QUOTED = re.compile(
    r"(?<!\w)'[^'\n]+?'(?!\w)|(?<!\w)\"[^\"\n]+?\"(?!\w)|“[^”\n]*”|‘[^’\n]*’|「[^」\n]*」"
)
# Code asked for is not the operation run: "a script that removes duplicate rows", "an SQL
# query to delete old rows", "写一个删除日志的脚本" ask for an artefact (GENERATE).
_ARTEFACT_EN = _compile(
    r"\b(?:write|draft|create|generate|implement|code|build|make|give\s+me|show\s+me|suggest"
    r"|provide)\s+(?:me\s+)?(?:(?:a|an|the|some|one)\s+)?(?:[\w-]+\s+){0,3}?(?:script|function"
    r"|program|code|query|class|method|tool|regex|snippet|command|sql|statement|example|test"
    r"|macro|migration|procedure|playbook|workflow|pipeline)s?\s+(?:that|which|to|for"
    r"|in\s+order\s+to)\b"
)
_ARTEFACT_ZH = _compile(
    r"(?:写|编写|生成|给我)[^。！？!?\n]{0,24}?(?:脚本|函数|程序|代码|命令|语句|sql|查询)"
)
_SENTENCE_END = re.compile(r"[.!?。！？\n]+(?=\s|$|[^\w./])|[。！？!?\n]")


@dataclass(frozen=True)
class IrreversibleReading:
    """What :func:`read_irreversible` found in a request.

    Attributes:
        matched: Names of the CRITICAL rules that matched in a sentence that requests the
            operation (e.g. ``critical.delete_data``); empty when none did.
        asked_about: Names of the rules that matched only inside a sentence asking *about*
            the operation (a how-to or explanation question).
    """

    matched: tuple[str, ...] = ()
    asked_about: tuple[str, ...] = ()


def _sentence_bounds(text: str, position: int) -> tuple[int, int]:
    start = 0
    for end in _SENTENCE_END.finditer(text):
        if end.end() > position:
            return start, end.end()
        start = end.end()
    return start, len(text)


def _in_artefact(text: str, sentence_start: int, position: int) -> bool:
    """Whether the match at ``position`` describes code to be written (see ``_ARTEFACT_EN``)."""
    sentence = text[sentence_start:position]
    for frame in _ARTEFACT_EN.finditer(sentence):
        if len(sentence) - frame.end() <= 25:  # "a script that" + at most a few words
            return True
    return any(
        f.start() <= position - sentence_start < f.end()
        for f in _ARTEFACT_ZH.finditer(text[sentence_start:])
    )


def read_irreversible(text: str) -> IrreversibleReading:
    """Find the irreversible operations a request asks for, by the class tables above.

    Each rule is tried on the text as written and with snake_case identifiers read as words
    (``passport_number``). A match wholly inside quotes is a mention and does not count, nor
    does one that describes code to be written ("a script that removes duplicate rows"); any
    other match counts as requested unless it lies in a sentence that asks about the operation
    (see the module docstring).

    Args:
        text: The request, English or Chinese, already normalised (straight quotes).

    Returns:
        The rules requested and the rules only asked about, each in table order.
    """
    spaced = text.replace("_", " ")
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    matched: list[str] = []
    asked: list[str] = []
    views = [_view(text)]
    views.append(_view(spaced) if spaced != text else views[0])
    for index, rule in enumerate(_RULES):
        seen = False
        requested = False
        for view, starts, held in views:
            if starts[index] == []:  # the pattern may start nowhere in this view
                continue
            if rule.needs is not None and not _holds(view, starts, held, rule.needs):
                continue  # a part every match holds is not in this view
            for match in _PRESCAN.finditer(rule.pattern, view, starts[index]):
                if any(a <= match.start() and match.end() <= b for a, b in quoted):
                    continue
                seen = True
                start, end = _sentence_bounds(view, match.start())
                if _in_artefact(view, start, match.start()):
                    continue
                if not _ASKS_ABOUT.search(view[start:end].strip()):
                    requested = True
                    break
            if requested:
                break
        if requested:
            matched.append(rule.name)
        elif seen:
            asked.append(rule.name)
    return IrreversibleReading(tuple(matched), tuple(asked))


def _view(text: str) -> tuple[str, list[list[int] | None], dict[str, bool]]:
    """A view of the text: its rules' start positions, and the ``_NEEDS`` parts found in it.

    The parts are looked for by ``_holds`` when a rule asks (most texts never reach one).
    """
    return text, _PRESCAN.starts(text), {}


def _holds(text: str, starts: list[list[int] | None], held: dict[str, bool], need: str) -> bool:
    """Whether ``need`` (a key of ``_NEEDS``) matches somewhere in the view, found once."""
    found = held.get(need)
    if found is None:
        found = held[need] = _PRESCAN.search(_NEEDS[need], text, starts[_NEEDS_SLOT[need]])
    return found


# The rules' patterns begin with a verb or a keyword: a literal pre-scan finds where each may
# start, and the pattern is tried there only (the same matches, 3x faster on long texts: a tool
# call's command, a long request took ~2 ms a call before).
_NEEDS: dict[str, re.Pattern[str]] = {"secret": _compile(_SECRET)}
"""Parts a rule's every match holds (``_Rule.needs``), pre-scanned with the rules' patterns."""
_NEEDS_SLOT = {name: len(_RULES) + i for i, name in enumerate(_NEEDS)}
_PRESCAN = LazyPrescan([rule.pattern for rule in _RULES] + list(_NEEDS.values()), "irreversible")
