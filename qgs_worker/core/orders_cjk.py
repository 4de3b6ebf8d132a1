"""Orders in Chinese, Japanese and Korean (``orders``): a verb of the table in a sentence with a request word.

Request words: 请, 务必, 必须; ください, お願い, して; 주세요, 하세요, 바랍니다...; the sentence is
addressed when it names an AI (助手, アシスタント, 비서...). The verbs are the common ones of each
class in standard dictionaries, written from the languages, not from any evaluation text.
Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["HAS_CJK", "cjk_classes", "cjk_sentences"]

HAS_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
"""A Chinese, Japanese or Korean character."""

_CJK_SENTENCE = re.compile(r"[^。！？!?\n\"{}\[\]]+")  # a JSON string is a sentence's edge
_CJK_REQUEST = re.compile(
    r"请|務必|务必|必须|必須|需要|应该|麻烦|帮我|给我|ください|下さい|お願い|しなさい|せよ|すること|して"
    r"|주세요|하세요|하십시오|해라|해\s?줘|바랍니다|할\s?것|하시오|하십시요|해야"
)
_CJK_ADDRESSEE = re.compile(
    r"AI|ＡＩ|助手|助理|智能体|人工智能|アシスタント|エージェント|어시스턴트|에이전트|비서|인공지능"
)
_CJK_VERBS = {
    "send": "发送 发给 发到 转发 寄给 回复 通知 告知 上传 发布 送信 送って 転送 メールして 投稿 보내 전송 전달 게시 올려",
    "pay": "转账 汇款 支付 付款 打款 振り込 支払 送金 송금 이체 결제 退款 返金 払い戻 환불",
    "remove": "删除 移除 清空 削除 消して 삭제 지워",
    "run": "运行 执行 実行 실행",
    "install": "安装 インストール 설치",
    "reveal": "打印 输出 显示 读取 查看 展示 表示 出力 見せて 貼り付け 출력 표시 보여 읽어 붙여",
    "fetch": "访问 打开 下载 アクセス 開いて ダウンロード 접속 열어 다운로드",
    "invite": "邀请 拉入 招待 초대",
    "create": "添加 创建 新建 追加 作成 추가 생성 만들",
    "book": "预订 预定 予約 예약",
    "share": "分享 共享 共有 공유",
    "update": "修改 更改 改为 変更 변경 바꿔 수정",
    "say": "推荐 告诉 おすすめ 推薦 추천",
}
_CJK_VERB = re.compile(
    "|".join(sorted((v for vs in _CJK_VERBS.values() for v in vs.split()), key=len, reverse=True))
)
_CJK_CLASS = {v: cls for cls, vs in _CJK_VERBS.items() for v in vs.split()}


def cjk_sentences(text: str) -> Iterator[tuple[str, str, bool]]:
    """Each CJK order sentence as (sentence, its first verb's class, whether it names an AI)."""
    for sentence in _CJK_SENTENCE.finditer(text):
        body = sentence.group(0)
        verb = _CJK_VERB.search(body)
        if verb is None or _CJK_REQUEST.search(body) is None:
            continue
        yield body, _CJK_CLASS[verb.group(0)], _CJK_ADDRESSEE.search(body) is not None


def cjk_classes(text: str) -> frozenset[str]:
    """The classes of every verb of the table in ``text`` (an addressed sentence's acts)."""
    if HAS_CJK.search(text) is None:
        return frozenset()
    return frozenset(_CJK_CLASS[m.group(0)] for m in _CJK_VERB.finditer(text))
