<?php

$curl = curl_init();

curl_setopt_array($curl, [
  CURLOPT_URL => 'https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true',
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_CUSTOMREQUEST => 'PUT',
  CURLOPT_POSTFIELDS => '{
  "name": "Shoe",
  "price": 12.5,
  "tags": [
    "red",
    "it\'s"
  ],
  "stock": null,
  "active": false
}',
  CURLOPT_COOKIE => 'session=s1',
  CURLOPT_HTTPHEADER => [
    'X-Request-Id: req-7',
    'Authorization: Bearer <token>',
    'Content-Type: application/json',
  ],
]);

$response = curl_exec($curl);
$err = curl_error($curl);
curl_close($curl);

if ($err) {
  echo 'cURL Error #:' . $err;
} else {
  echo $response;
}
