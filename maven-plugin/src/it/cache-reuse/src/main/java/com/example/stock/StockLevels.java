package com.example.stock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Nothing racelint reports: the cache test only needs a module that analyses cleanly. */
public class StockLevels {
    private final Map<String, Integer> levels = new ConcurrentHashMap<>();

    public int adjust(String sku, int delta) {
        return levels.merge(sku, delta, Integer::sum);
    }
}
