# A stale line by a known key, then one that verifies.
stale-2023 akzTZRyXiF4PHefTpdV8lT9LX/lc3kkU+Lb0+dzA9ljJqBxnNlNJQql+T6pxep0KmSGBb/TsqOAWXKAuiMHPBA==
fixture-2024 akzTZRyXiF4PHebTpdV8lT9LX/lc3kkU+Lb0+dzA9ljJqBxnNlNJQql+T6pxep0KmSGBb/TsqOAWXKAuiMHPBA==
