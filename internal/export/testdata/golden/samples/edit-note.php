<?php

$curl = curl_init();

curl_setopt_array($curl, [
  CURLOPT_URL => 'https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E',
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_CUSTOMREQUEST => 'PATCH',
  CURLOPT_POSTFIELDS => 'it\'s "done" \\ $HOME #{x}
line 2',
  CURLOPT_HTTPHEADER => [
    'Content-Type: text/plain',
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
