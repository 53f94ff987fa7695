package com.example.client;

import org.springframework.web.client.RestTemplate;

/** The payment service's HTTP client. */
public class PaymentClient {

    private final RestTemplate restTemplate;

    public PaymentClient(RestTemplate restTemplate) {
        this.restTemplate = restTemplate;
    }

    public String charge(String orderId) {
        return restTemplate.postForObject("http://payments/charge", orderId, String.class);
    }
}
