<?php

$curl = curl_init();

curl_setopt_array($curl, [
  CURLOPT_URL => 'https://echo.invalid/v2/login',
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_CUSTOMREQUEST => 'POST',
  CURLOPT_POSTFIELDS => http_build_query([
    'username' => 'ada',
    'scope' => 'read write',
  ]),
  CURLOPT_HTTPHEADER => [
    'Authorization: Basic <credentials>',
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
