package com.example.orders;

import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.client.RestTemplate;

public class OrderService {

    private final RestTemplate restTemplate;

    public OrderService(RestTemplate restTemplate) {
        this.restTemplate = restTemplate;
    }

    @Transactional
    public String placeOrder(String orderId) {
        return restTemplate.postForObject("http://payments/charge", orderId, String.class);
    }
}
