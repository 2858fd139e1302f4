KNOWN: dict[str, str] = {}
