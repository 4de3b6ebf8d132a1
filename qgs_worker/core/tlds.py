"""The top-level domains a bare domain is read with (``followed_values``, ``acts``).

Pure: no imports.
"""

__all__ = ["TLDS"]

TLDS = (
    "com|net|org|io|ai|co|edu|gov|uk|de|fr|cn|ru|jp|in|us|eu|ch|nl|biz|xyz|top|online|site|club"
    "|shop|dev|cc|tk|ly|to|info|app|cloud|tech|me|sh|gg|so|page|zone|link|live|run|store|pro|blog"
    "|news|email|space|website|world|today|agency|digital|network|systems|services|tools|support"
    "|host|click|ca|au|es|it|pl|br|mx|kr|se|no|fi|dk|be|at|cz|pt|ie|nz|za|tv|fm|ws|id|vn|tw|hk|sg"
    "|ua|tr|il|example|test|invalid|local|internal|corp|lan"
)
"""Top-level domains a bare domain is read with (the common generic and country ones, and the
names RFC 2606 / RFC 6762 reserve for documentation, tests and local networks)."""
