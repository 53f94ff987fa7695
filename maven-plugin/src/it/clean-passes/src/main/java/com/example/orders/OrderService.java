package com.example.orders;

import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.client.RestTemplate;

/** Calls the payment service first, then records the order in a short transaction. */
public class OrderService {

    private final RestTemplate restTemplate;
    private final OrderStore store;

    public OrderService(RestTemplate restTemplate, OrderStore store) {
        this.restTemplate = restTemplate;
        this.store = store;
    }

    public String placeOrder(String orderId) {
        String receipt = restTemplate.postForObject("http://payments/charge", orderId, String.class);
        store.record(orderId, receipt);
        return receipt;
    }

    public static class OrderStore {
        private final java.util.Map<String, String> receipts = new java.util.concurrent.ConcurrentHashMap<>();

        @Transactional
        public void record(String orderId, String receipt) {
            receipts.put(orderId, receipt);
        }
    }
}
