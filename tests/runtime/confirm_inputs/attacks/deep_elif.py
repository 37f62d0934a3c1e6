"""Attack: a 1,500-branch elif chain (deeper than the default recursion limit) next to a loop."""
import jax.numpy as jnp


def pick(x):
    if x == 0:
        return 0
    elif x == 1:
        return 1
    elif x == 2:
        return 2
    elif x == 3:
        return 3
    elif x == 4:
        return 4
    elif x == 5:
        return 5
    elif x == 6:
        return 6
    elif x == 7:
        return 7
    elif x == 8:
        return 8
    elif x == 9:
        return 9
    elif x == 10:
        return 10
    elif x == 11:
        return 11
    elif x == 12:
        return 12
    elif x == 13:
        return 13
    elif x == 14:
        return 14
    elif x == 15:
        return 15
    elif x == 16:
        return 16
    elif x == 17:
        return 17
    elif x == 18:
        return 18
    elif x == 19:
        return 19
    elif x == 20:
        return 20
    elif x == 21:
        return 21
    elif x == 22:
        return 22
    elif x == 23:
        return 23
    elif x == 24:
        return 24
    elif x == 25:
        return 25
    elif x == 26:
        return 26
    elif x == 27:
        return 27
    elif x == 28:
        return 28
    elif x == 29:
        return 29
    elif x == 30:
        return 30
    elif x == 31:
        return 31
    elif x == 32:
        return 32
    elif x == 33:
        return 33
    elif x == 34:
        return 34
    elif x == 35:
        return 35
    elif x == 36:
        return 36
    elif x == 37:
        return 37
    elif x == 38:
        return 38
    elif x == 39:
        return 39
    elif x == 40:
        return 40
    elif x == 41:
        return 41
    elif x == 42:
        return 42
    elif x == 43:
        return 43
    elif x == 44:
        return 44
    elif x == 45:
        return 45
    elif x == 46:
        return 46
    elif x == 47:
        return 47
    elif x == 48:
        return 48
    elif x == 49:
        return 49
    elif x == 50:
        return 50
    elif x == 51:
        return 51
    elif x == 52:
        return 52
    elif x == 53:
        return 53
    elif x == 54:
        return 54
    elif x == 55:
        return 55
    elif x == 56:
        return 56
    elif x == 57:
        return 57
    elif x == 58:
        return 58
    elif x == 59:
        return 59
    elif x == 60:
        return 60
    elif x == 61:
        return 61
    elif x == 62:
        return 62
    elif x == 63:
        return 63
    elif x == 64:
        return 64
    elif x == 65:
        return 65
    elif x == 66:
        return 66
    elif x == 67:
        return 67
    elif x == 68:
        return 68
    elif x == 69:
        return 69
    elif x == 70:
        return 70
    elif x == 71:
        return 71
    elif x == 72:
        return 72
    elif x == 73:
        return 73
    elif x == 74:
        return 74
    elif x == 75:
        return 75
    elif x == 76:
        return 76
    elif x == 77:
        return 77
    elif x == 78:
        return 78
    elif x == 79:
        return 79
    elif x == 80:
        return 80
    elif x == 81:
        return 81
    elif x == 82:
        return 82
    elif x == 83:
        return 83
    elif x == 84:
        return 84
    elif x == 85:
        return 85
    elif x == 86:
        return 86
    elif x == 87:
        return 87
    elif x == 88:
        return 88
    elif x == 89:
        return 89
    elif x == 90:
        return 90
    elif x == 91:
        return 91
    elif x == 92:
        return 92
    elif x == 93:
        return 93
    elif x == 94:
        return 94
    elif x == 95:
        return 95
    elif x == 96:
        return 96
    elif x == 97:
        return 97
    elif x == 98:
        return 98
    elif x == 99:
        return 99
    elif x == 100:
        return 100
    elif x == 101:
        return 101
    elif x == 102:
        return 102
    elif x == 103:
        return 103
    elif x == 104:
        return 104
    elif x == 105:
        return 105
    elif x == 106:
        return 106
    elif x == 107:
        return 107
    elif x == 108:
        return 108
    elif x == 109:
        return 109
    elif x == 110:
        return 110
    elif x == 111:
        return 111
    elif x == 112:
        return 112
    elif x == 113:
        return 113
    elif x == 114:
        return 114
    elif x == 115:
        return 115
    elif x == 116:
        return 116
    elif x == 117:
        return 117
    elif x == 118:
        return 118
    elif x == 119:
        return 119
    elif x == 120:
        return 120
    elif x == 121:
        return 121
    elif x == 122:
        return 122
    elif x == 123:
        return 123
    elif x == 124:
        return 124
    elif x == 125:
        return 125
    elif x == 126:
        return 126
    elif x == 127:
        return 127
    elif x == 128:
        return 128
    elif x == 129:
        return 129
    elif x == 130:
        return 130
    elif x == 131:
        return 131
    elif x == 132:
        return 132
    elif x == 133:
        return 133
    elif x == 134:
        return 134
    elif x == 135:
        return 135
    elif x == 136:
        return 136
    elif x == 137:
        return 137
    elif x == 138:
        return 138
    elif x == 139:
        return 139
    elif x == 140:
        return 140
    elif x == 141:
        return 141
    elif x == 142:
        return 142
    elif x == 143:
        return 143
    elif x == 144:
        return 144
    elif x == 145:
        return 145
    elif x == 146:
        return 146
    elif x == 147:
        return 147
    elif x == 148:
        return 148
    elif x == 149:
        return 149
    elif x == 150:
        return 150
    elif x == 151:
        return 151
    elif x == 152:
        return 152
    elif x == 153:
        return 153
    elif x == 154:
        return 154
    elif x == 155:
        return 155
    elif x == 156:
        return 156
    elif x == 157:
        return 157
    elif x == 158:
        return 158
    elif x == 159:
        return 159
    elif x == 160:
        return 160
    elif x == 161:
        return 161
    elif x == 162:
        return 162
    elif x == 163:
        return 163
    elif x == 164:
        return 164
    elif x == 165:
        return 165
    elif x == 166:
        return 166
    elif x == 167:
        return 167
    elif x == 168:
        return 168
    elif x == 169:
        return 169
    elif x == 170:
        return 170
    elif x == 171:
        return 171
    elif x == 172:
        return 172
    elif x == 173:
        return 173
    elif x == 174:
        return 174
    elif x == 175:
        return 175
    elif x == 176:
        return 176
    elif x == 177:
        return 177
    elif x == 178:
        return 178
    elif x == 179:
        return 179
    elif x == 180:
        return 180
    elif x == 181:
        return 181
    elif x == 182:
        return 182
    elif x == 183:
        return 183
    elif x == 184:
        return 184
    elif x == 185:
        return 185
    elif x == 186:
        return 186
    elif x == 187:
        return 187
    elif x == 188:
        return 188
    elif x == 189:
        return 189
    elif x == 190:
        return 190
    elif x == 191:
        return 191
    elif x == 192:
        return 192
    elif x == 193:
        return 193
    elif x == 194:
        return 194
    elif x == 195:
        return 195
    elif x == 196:
        return 196
    elif x == 197:
        return 197
    elif x == 198:
        return 198
    elif x == 199:
        return 199
    elif x == 200:
        return 200
    elif x == 201:
        return 201
    elif x == 202:
        return 202
    elif x == 203:
        return 203
    elif x == 204:
        return 204
    elif x == 205:
        return 205
    elif x == 206:
        return 206
    elif x == 207:
        return 207
    elif x == 208:
        return 208
    elif x == 209:
        return 209
    elif x == 210:
        return 210
    elif x == 211:
        return 211
    elif x == 212:
        return 212
    elif x == 213:
        return 213
    elif x == 214:
        return 214
    elif x == 215:
        return 215
    elif x == 216:
        return 216
    elif x == 217:
        return 217
    elif x == 218:
        return 218
    elif x == 219:
        return 219
    elif x == 220:
        return 220
    elif x == 221:
        return 221
    elif x == 222:
        return 222
    elif x == 223:
        return 223
    elif x == 224:
        return 224
    elif x == 225:
        return 225
    elif x == 226:
        return 226
    elif x == 227:
        return 227
    elif x == 228:
        return 228
    elif x == 229:
        return 229
    elif x == 230:
        return 230
    elif x == 231:
        return 231
    elif x == 232:
        return 232
    elif x == 233:
        return 233
    elif x == 234:
        return 234
    elif x == 235:
        return 235
    elif x == 236:
        return 236
    elif x == 237:
        return 237
    elif x == 238:
        return 238
    elif x == 239:
        return 239
    elif x == 240:
        return 240
    elif x == 241:
        return 241
    elif x == 242:
        return 242
    elif x == 243:
        return 243
    elif x == 244:
        return 244
    elif x == 245:
        return 245
    elif x == 246:
        return 246
    elif x == 247:
        return 247
    elif x == 248:
        return 248
    elif x == 249:
        return 249
    elif x == 250:
        return 250
    elif x == 251:
        return 251
    elif x == 252:
        return 252
    elif x == 253:
        return 253
    elif x == 254:
        return 254
    elif x == 255:
        return 255
    elif x == 256:
        return 256
    elif x == 257:
        return 257
    elif x == 258:
        return 258
    elif x == 259:
        return 259
    elif x == 260:
        return 260
    elif x == 261:
        return 261
    elif x == 262:
        return 262
    elif x == 263:
        return 263
    elif x == 264:
        return 264
    elif x == 265:
        return 265
    elif x == 266:
        return 266
    elif x == 267:
        return 267
    elif x == 268:
        return 268
    elif x == 269:
        return 269
    elif x == 270:
        return 270
    elif x == 271:
        return 271
    elif x == 272:
        return 272
    elif x == 273:
        return 273
    elif x == 274:
        return 274
    elif x == 275:
        return 275
    elif x == 276:
        return 276
    elif x == 277:
        return 277
    elif x == 278:
        return 278
    elif x == 279:
        return 279
    elif x == 280:
        return 280
    elif x == 281:
        return 281
    elif x == 282:
        return 282
    elif x == 283:
        return 283
    elif x == 284:
        return 284
    elif x == 285:
        return 285
    elif x == 286:
        return 286
    elif x == 287:
        return 287
    elif x == 288:
        return 288
    elif x == 289:
        return 289
    elif x == 290:
        return 290
    elif x == 291:
        return 291
    elif x == 292:
        return 292
    elif x == 293:
        return 293
    elif x == 294:
        return 294
    elif x == 295:
        return 295
    elif x == 296:
        return 296
    elif x == 297:
        return 297
    elif x == 298:
        return 298
    elif x == 299:
        return 299
    elif x == 300:
        return 300
    elif x == 301:
        return 301
    elif x == 302:
        return 302
    elif x == 303:
        return 303
    elif x == 304:
        return 304
    elif x == 305:
        return 305
    elif x == 306:
        return 306
    elif x == 307:
        return 307
    elif x == 308:
        return 308
    elif x == 309:
        return 309
    elif x == 310:
        return 310
    elif x == 311:
        return 311
    elif x == 312:
        return 312
    elif x == 313:
        return 313
    elif x == 314:
        return 314
    elif x == 315:
        return 315
    elif x == 316:
        return 316
    elif x == 317:
        return 317
    elif x == 318:
        return 318
    elif x == 319:
        return 319
    elif x == 320:
        return 320
    elif x == 321:
        return 321
    elif x == 322:
        return 322
    elif x == 323:
        return 323
    elif x == 324:
        return 324
    elif x == 325:
        return 325
    elif x == 326:
        return 326
    elif x == 327:
        return 327
    elif x == 328:
        return 328
    elif x == 329:
        return 329
    elif x == 330:
        return 330
    elif x == 331:
        return 331
    elif x == 332:
        return 332
    elif x == 333:
        return 333
    elif x == 334:
        return 334
    elif x == 335:
        return 335
    elif x == 336:
        return 336
    elif x == 337:
        return 337
    elif x == 338:
        return 338
    elif x == 339:
        return 339
    elif x == 340:
        return 340
    elif x == 341:
        return 341
    elif x == 342:
        return 342
    elif x == 343:
        return 343
    elif x == 344:
        return 344
    elif x == 345:
        return 345
    elif x == 346:
        return 346
    elif x == 347:
        return 347
    elif x == 348:
        return 348
    elif x == 349:
        return 349
    elif x == 350:
        return 350
    elif x == 351:
        return 351
    elif x == 352:
        return 352
    elif x == 353:
        return 353
    elif x == 354:
        return 354
    elif x == 355:
        return 355
    elif x == 356:
        return 356
    elif x == 357:
        return 357
    elif x == 358:
        return 358
    elif x == 359:
        return 359
    elif x == 360:
        return 360
    elif x == 361:
        return 361
    elif x == 362:
        return 362
    elif x == 363:
        return 363
    elif x == 364:
        return 364
    elif x == 365:
        return 365
    elif x == 366:
        return 366
    elif x == 367:
        return 367
    elif x == 368:
        return 368
    elif x == 369:
        return 369
    elif x == 370:
        return 370
    elif x == 371:
        return 371
    elif x == 372:
        return 372
    elif x == 373:
        return 373
    elif x == 374:
        return 374
    elif x == 375:
        return 375
    elif x == 376:
        return 376
    elif x == 377:
        return 377
    elif x == 378:
        return 378
    elif x == 379:
        return 379
    elif x == 380:
        return 380
    elif x == 381:
        return 381
    elif x == 382:
        return 382
    elif x == 383:
        return 383
    elif x == 384:
        return 384
    elif x == 385:
        return 385
    elif x == 386:
        return 386
    elif x == 387:
        return 387
    elif x == 388:
        return 388
    elif x == 389:
        return 389
    elif x == 390:
        return 390
    elif x == 391:
        return 391
    elif x == 392:
        return 392
    elif x == 393:
        return 393
    elif x == 394:
        return 394
    elif x == 395:
        return 395
    elif x == 396:
        return 396
    elif x == 397:
        return 397
    elif x == 398:
        return 398
    elif x == 399:
        return 399
    elif x == 400:
        return 400
    elif x == 401:
        return 401
    elif x == 402:
        return 402
    elif x == 403:
        return 403
    elif x == 404:
        return 404
    elif x == 405:
        return 405
    elif x == 406:
        return 406
    elif x == 407:
        return 407
    elif x == 408:
        return 408
    elif x == 409:
        return 409
    elif x == 410:
        return 410
    elif x == 411:
        return 411
    elif x == 412:
        return 412
    elif x == 413:
        return 413
    elif x == 414:
        return 414
    elif x == 415:
        return 415
    elif x == 416:
        return 416
    elif x == 417:
        return 417
    elif x == 418:
        return 418
    elif x == 419:
        return 419
    elif x == 420:
        return 420
    elif x == 421:
        return 421
    elif x == 422:
        return 422
    elif x == 423:
        return 423
    elif x == 424:
        return 424
    elif x == 425:
        return 425
    elif x == 426:
        return 426
    elif x == 427:
        return 427
    elif x == 428:
        return 428
    elif x == 429:
        return 429
    elif x == 430:
        return 430
    elif x == 431:
        return 431
    elif x == 432:
        return 432
    elif x == 433:
        return 433
    elif x == 434:
        return 434
    elif x == 435:
        return 435
    elif x == 436:
        return 436
    elif x == 437:
        return 437
    elif x == 438:
        return 438
    elif x == 439:
        return 439
    elif x == 440:
        return 440
    elif x == 441:
        return 441
    elif x == 442:
        return 442
    elif x == 443:
        return 443
    elif x == 444:
        return 444
    elif x == 445:
        return 445
    elif x == 446:
        return 446
    elif x == 447:
        return 447
    elif x == 448:
        return 448
    elif x == 449:
        return 449
    elif x == 450:
        return 450
    elif x == 451:
        return 451
    elif x == 452:
        return 452
    elif x == 453:
        return 453
    elif x == 454:
        return 454
    elif x == 455:
        return 455
    elif x == 456:
        return 456
    elif x == 457:
        return 457
    elif x == 458:
        return 458
    elif x == 459:
        return 459
    elif x == 460:
        return 460
    elif x == 461:
        return 461
    elif x == 462:
        return 462
    elif x == 463:
        return 463
    elif x == 464:
        return 464
    elif x == 465:
        return 465
    elif x == 466:
        return 466
    elif x == 467:
        return 467
    elif x == 468:
        return 468
    elif x == 469:
        return 469
    elif x == 470:
        return 470
    elif x == 471:
        return 471
    elif x == 472:
        return 472
    elif x == 473:
        return 473
    elif x == 474:
        return 474
    elif x == 475:
        return 475
    elif x == 476:
        return 476
    elif x == 477:
        return 477
    elif x == 478:
        return 478
    elif x == 479:
        return 479
    elif x == 480:
        return 480
    elif x == 481:
        return 481
    elif x == 482:
        return 482
    elif x == 483:
        return 483
    elif x == 484:
        return 484
    elif x == 485:
        return 485
    elif x == 486:
        return 486
    elif x == 487:
        return 487
    elif x == 488:
        return 488
    elif x == 489:
        return 489
    elif x == 490:
        return 490
    elif x == 491:
        return 491
    elif x == 492:
        return 492
    elif x == 493:
        return 493
    elif x == 494:
        return 494
    elif x == 495:
        return 495
    elif x == 496:
        return 496
    elif x == 497:
        return 497
    elif x == 498:
        return 498
    elif x == 499:
        return 499
    elif x == 500:
        return 500
    elif x == 501:
        return 501
    elif x == 502:
        return 502
    elif x == 503:
        return 503
    elif x == 504:
        return 504
    elif x == 505:
        return 505
    elif x == 506:
        return 506
    elif x == 507:
        return 507
    elif x == 508:
        return 508
    elif x == 509:
        return 509
    elif x == 510:
        return 510
    elif x == 511:
        return 511
    elif x == 512:
        return 512
    elif x == 513:
        return 513
    elif x == 514:
        return 514
    elif x == 515:
        return 515
    elif x == 516:
        return 516
    elif x == 517:
        return 517
    elif x == 518:
        return 518
    elif x == 519:
        return 519
    elif x == 520:
        return 520
    elif x == 521:
        return 521
    elif x == 522:
        return 522
    elif x == 523:
        return 523
    elif x == 524:
        return 524
    elif x == 525:
        return 525
    elif x == 526:
        return 526
    elif x == 527:
        return 527
    elif x == 528:
        return 528
    elif x == 529:
        return 529
    elif x == 530:
        return 530
    elif x == 531:
        return 531
    elif x == 532:
        return 532
    elif x == 533:
        return 533
    elif x == 534:
        return 534
    elif x == 535:
        return 535
    elif x == 536:
        return 536
    elif x == 537:
        return 537
    elif x == 538:
        return 538
    elif x == 539:
        return 539
    elif x == 540:
        return 540
    elif x == 541:
        return 541
    elif x == 542:
        return 542
    elif x == 543:
        return 543
    elif x == 544:
        return 544
    elif x == 545:
        return 545
    elif x == 546:
        return 546
    elif x == 547:
        return 547
    elif x == 548:
        return 548
    elif x == 549:
        return 549
    elif x == 550:
        return 550
    elif x == 551:
        return 551
    elif x == 552:
        return 552
    elif x == 553:
        return 553
    elif x == 554:
        return 554
    elif x == 555:
        return 555
    elif x == 556:
        return 556
    elif x == 557:
        return 557
    elif x == 558:
        return 558
    elif x == 559:
        return 559
    elif x == 560:
        return 560
    elif x == 561:
        return 561
    elif x == 562:
        return 562
    elif x == 563:
        return 563
    elif x == 564:
        return 564
    elif x == 565:
        return 565
    elif x == 566:
        return 566
    elif x == 567:
        return 567
    elif x == 568:
        return 568
    elif x == 569:
        return 569
    elif x == 570:
        return 570
    elif x == 571:
        return 571
    elif x == 572:
        return 572
    elif x == 573:
        return 573
    elif x == 574:
        return 574
    elif x == 575:
        return 575
    elif x == 576:
        return 576
    elif x == 577:
        return 577
    elif x == 578:
        return 578
    elif x == 579:
        return 579
    elif x == 580:
        return 580
    elif x == 581:
        return 581
    elif x == 582:
        return 582
    elif x == 583:
        return 583
    elif x == 584:
        return 584
    elif x == 585:
        return 585
    elif x == 586:
        return 586
    elif x == 587:
        return 587
    elif x == 588:
        return 588
    elif x == 589:
        return 589
    elif x == 590:
        return 590
    elif x == 591:
        return 591
    elif x == 592:
        return 592
    elif x == 593:
        return 593
    elif x == 594:
        return 594
    elif x == 595:
        return 595
    elif x == 596:
        return 596
    elif x == 597:
        return 597
    elif x == 598:
        return 598
    elif x == 599:
        return 599
    elif x == 600:
        return 600
    elif x == 601:
        return 601
    elif x == 602:
        return 602
    elif x == 603:
        return 603
    elif x == 604:
        return 604
    elif x == 605:
        return 605
    elif x == 606:
        return 606
    elif x == 607:
        return 607
    elif x == 608:
        return 608
    elif x == 609:
        return 609
    elif x == 610:
        return 610
    elif x == 611:
        return 611
    elif x == 612:
        return 612
    elif x == 613:
        return 613
    elif x == 614:
        return 614
    elif x == 615:
        return 615
    elif x == 616:
        return 616
    elif x == 617:
        return 617
    elif x == 618:
        return 618
    elif x == 619:
        return 619
    elif x == 620:
        return 620
    elif x == 621:
        return 621
    elif x == 622:
        return 622
    elif x == 623:
        return 623
    elif x == 624:
        return 624
    elif x == 625:
        return 625
    elif x == 626:
        return 626
    elif x == 627:
        return 627
    elif x == 628:
        return 628
    elif x == 629:
        return 629
    elif x == 630:
        return 630
    elif x == 631:
        return 631
    elif x == 632:
        return 632
    elif x == 633:
        return 633
    elif x == 634:
        return 634
    elif x == 635:
        return 635
    elif x == 636:
        return 636
    elif x == 637:
        return 637
    elif x == 638:
        return 638
    elif x == 639:
        return 639
    elif x == 640:
        return 640
    elif x == 641:
        return 641
    elif x == 642:
        return 642
    elif x == 643:
        return 643
    elif x == 644:
        return 644
    elif x == 645:
        return 645
    elif x == 646:
        return 646
    elif x == 647:
        return 647
    elif x == 648:
        return 648
    elif x == 649:
        return 649
    elif x == 650:
        return 650
    elif x == 651:
        return 651
    elif x == 652:
        return 652
    elif x == 653:
        return 653
    elif x == 654:
        return 654
    elif x == 655:
        return 655
    elif x == 656:
        return 656
    elif x == 657:
        return 657
    elif x == 658:
        return 658
    elif x == 659:
        return 659
    elif x == 660:
        return 660
    elif x == 661:
        return 661
    elif x == 662:
        return 662
    elif x == 663:
        return 663
    elif x == 664:
        return 664
    elif x == 665:
        return 665
    elif x == 666:
        return 666
    elif x == 667:
        return 667
    elif x == 668:
        return 668
    elif x == 669:
        return 669
    elif x == 670:
        return 670
    elif x == 671:
        return 671
    elif x == 672:
        return 672
    elif x == 673:
        return 673
    elif x == 674:
        return 674
    elif x == 675:
        return 675
    elif x == 676:
        return 676
    elif x == 677:
        return 677
    elif x == 678:
        return 678
    elif x == 679:
        return 679
    elif x == 680:
        return 680
    elif x == 681:
        return 681
    elif x == 682:
        return 682
    elif x == 683:
        return 683
    elif x == 684:
        return 684
    elif x == 685:
        return 685
    elif x == 686:
        return 686
    elif x == 687:
        return 687
    elif x == 688:
        return 688
    elif x == 689:
        return 689
    elif x == 690:
        return 690
    elif x == 691:
        return 691
    elif x == 692:
        return 692
    elif x == 693:
        return 693
    elif x == 694:
        return 694
    elif x == 695:
        return 695
    elif x == 696:
        return 696
    elif x == 697:
        return 697
    elif x == 698:
        return 698
    elif x == 699:
        return 699
    elif x == 700:
        return 700
    elif x == 701:
        return 701
    elif x == 702:
        return 702
    elif x == 703:
        return 703
    elif x == 704:
        return 704
    elif x == 705:
        return 705
    elif x == 706:
        return 706
    elif x == 707:
        return 707
    elif x == 708:
        return 708
    elif x == 709:
        return 709
    elif x == 710:
        return 710
    elif x == 711:
        return 711
    elif x == 712:
        return 712
    elif x == 713:
        return 713
    elif x == 714:
        return 714
    elif x == 715:
        return 715
    elif x == 716:
        return 716
    elif x == 717:
        return 717
    elif x == 718:
        return 718
    elif x == 719:
        return 719
    elif x == 720:
        return 720
    elif x == 721:
        return 721
    elif x == 722:
        return 722
    elif x == 723:
        return 723
    elif x == 724:
        return 724
    elif x == 725:
        return 725
    elif x == 726:
        return 726
    elif x == 727:
        return 727
    elif x == 728:
        return 728
    elif x == 729:
        return 729
    elif x == 730:
        return 730
    elif x == 731:
        return 731
    elif x == 732:
        return 732
    elif x == 733:
        return 733
    elif x == 734:
        return 734
    elif x == 735:
        return 735
    elif x == 736:
        return 736
    elif x == 737:
        return 737
    elif x == 738:
        return 738
    elif x == 739:
        return 739
    elif x == 740:
        return 740
    elif x == 741:
        return 741
    elif x == 742:
        return 742
    elif x == 743:
        return 743
    elif x == 744:
        return 744
    elif x == 745:
        return 745
    elif x == 746:
        return 746
    elif x == 747:
        return 747
    elif x == 748:
        return 748
    elif x == 749:
        return 749
    elif x == 750:
        return 750
    elif x == 751:
        return 751
    elif x == 752:
        return 752
    elif x == 753:
        return 753
    elif x == 754:
        return 754
    elif x == 755:
        return 755
    elif x == 756:
        return 756
    elif x == 757:
        return 757
    elif x == 758:
        return 758
    elif x == 759:
        return 759
    elif x == 760:
        return 760
    elif x == 761:
        return 761
    elif x == 762:
        return 762
    elif x == 763:
        return 763
    elif x == 764:
        return 764
    elif x == 765:
        return 765
    elif x == 766:
        return 766
    elif x == 767:
        return 767
    elif x == 768:
        return 768
    elif x == 769:
        return 769
    elif x == 770:
        return 770
    elif x == 771:
        return 771
    elif x == 772:
        return 772
    elif x == 773:
        return 773
    elif x == 774:
        return 774
    elif x == 775:
        return 775
    elif x == 776:
        return 776
    elif x == 777:
        return 777
    elif x == 778:
        return 778
    elif x == 779:
        return 779
    elif x == 780:
        return 780
    elif x == 781:
        return 781
    elif x == 782:
        return 782
    elif x == 783:
        return 783
    elif x == 784:
        return 784
    elif x == 785:
        return 785
    elif x == 786:
        return 786
    elif x == 787:
        return 787
    elif x == 788:
        return 788
    elif x == 789:
        return 789
    elif x == 790:
        return 790
    elif x == 791:
        return 791
    elif x == 792:
        return 792
    elif x == 793:
        return 793
    elif x == 794:
        return 794
    elif x == 795:
        return 795
    elif x == 796:
        return 796
    elif x == 797:
        return 797
    elif x == 798:
        return 798
    elif x == 799:
        return 799
    elif x == 800:
        return 800
    elif x == 801:
        return 801
    elif x == 802:
        return 802
    elif x == 803:
        return 803
    elif x == 804:
        return 804
    elif x == 805:
        return 805
    elif x == 806:
        return 806
    elif x == 807:
        return 807
    elif x == 808:
        return 808
    elif x == 809:
        return 809
    elif x == 810:
        return 810
    elif x == 811:
        return 811
    elif x == 812:
        return 812
    elif x == 813:
        return 813
    elif x == 814:
        return 814
    elif x == 815:
        return 815
    elif x == 816:
        return 816
    elif x == 817:
        return 817
    elif x == 818:
        return 818
    elif x == 819:
        return 819
    elif x == 820:
        return 820
    elif x == 821:
        return 821
    elif x == 822:
        return 822
    elif x == 823:
        return 823
    elif x == 824:
        return 824
    elif x == 825:
        return 825
    elif x == 826:
        return 826
    elif x == 827:
        return 827
    elif x == 828:
        return 828
    elif x == 829:
        return 829
    elif x == 830:
        return 830
    elif x == 831:
        return 831
    elif x == 832:
        return 832
    elif x == 833:
        return 833
    elif x == 834:
        return 834
    elif x == 835:
        return 835
    elif x == 836:
        return 836
    elif x == 837:
        return 837
    elif x == 838:
        return 838
    elif x == 839:
        return 839
    elif x == 840:
        return 840
    elif x == 841:
        return 841
    elif x == 842:
        return 842
    elif x == 843:
        return 843
    elif x == 844:
        return 844
    elif x == 845:
        return 845
    elif x == 846:
        return 846
    elif x == 847:
        return 847
    elif x == 848:
        return 848
    elif x == 849:
        return 849
    elif x == 850:
        return 850
    elif x == 851:
        return 851
    elif x == 852:
        return 852
    elif x == 853:
        return 853
    elif x == 854:
        return 854
    elif x == 855:
        return 855
    elif x == 856:
        return 856
    elif x == 857:
        return 857
    elif x == 858:
        return 858
    elif x == 859:
        return 859
    elif x == 860:
        return 860
    elif x == 861:
        return 861
    elif x == 862:
        return 862
    elif x == 863:
        return 863
    elif x == 864:
        return 864
    elif x == 865:
        return 865
    elif x == 866:
        return 866
    elif x == 867:
        return 867
    elif x == 868:
        return 868
    elif x == 869:
        return 869
    elif x == 870:
        return 870
    elif x == 871:
        return 871
    elif x == 872:
        return 872
    elif x == 873:
        return 873
    elif x == 874:
        return 874
    elif x == 875:
        return 875
    elif x == 876:
        return 876
    elif x == 877:
        return 877
    elif x == 878:
        return 878
    elif x == 879:
        return 879
    elif x == 880:
        return 880
    elif x == 881:
        return 881
    elif x == 882:
        return 882
    elif x == 883:
        return 883
    elif x == 884:
        return 884
    elif x == 885:
        return 885
    elif x == 886:
        return 886
    elif x == 887:
        return 887
    elif x == 888:
        return 888
    elif x == 889:
        return 889
    elif x == 890:
        return 890
    elif x == 891:
        return 891
    elif x == 892:
        return 892
    elif x == 893:
        return 893
    elif x == 894:
        return 894
    elif x == 895:
        return 895
    elif x == 896:
        return 896
    elif x == 897:
        return 897
    elif x == 898:
        return 898
    elif x == 899:
        return 899
    elif x == 900:
        return 900
    elif x == 901:
        return 901
    elif x == 902:
        return 902
    elif x == 903:
        return 903
    elif x == 904:
        return 904
    elif x == 905:
        return 905
    elif x == 906:
        return 906
    elif x == 907:
        return 907
    elif x == 908:
        return 908
    elif x == 909:
        return 909
    elif x == 910:
        return 910
    elif x == 911:
        return 911
    elif x == 912:
        return 912
    elif x == 913:
        return 913
    elif x == 914:
        return 914
    elif x == 915:
        return 915
    elif x == 916:
        return 916
    elif x == 917:
        return 917
    elif x == 918:
        return 918
    elif x == 919:
        return 919
    elif x == 920:
        return 920
    elif x == 921:
        return 921
    elif x == 922:
        return 922
    elif x == 923:
        return 923
    elif x == 924:
        return 924
    elif x == 925:
        return 925
    elif x == 926:
        return 926
    elif x == 927:
        return 927
    elif x == 928:
        return 928
    elif x == 929:
        return 929
    elif x == 930:
        return 930
    elif x == 931:
        return 931
    elif x == 932:
        return 932
    elif x == 933:
        return 933
    elif x == 934:
        return 934
    elif x == 935:
        return 935
    elif x == 936:
        return 936
    elif x == 937:
        return 937
    elif x == 938:
        return 938
    elif x == 939:
        return 939
    elif x == 940:
        return 940
    elif x == 941:
        return 941
    elif x == 942:
        return 942
    elif x == 943:
        return 943
    elif x == 944:
        return 944
    elif x == 945:
        return 945
    elif x == 946:
        return 946
    elif x == 947:
        return 947
    elif x == 948:
        return 948
    elif x == 949:
        return 949
    elif x == 950:
        return 950
    elif x == 951:
        return 951
    elif x == 952:
        return 952
    elif x == 953:
        return 953
    elif x == 954:
        return 954
    elif x == 955:
        return 955
    elif x == 956:
        return 956
    elif x == 957:
        return 957
    elif x == 958:
        return 958
    elif x == 959:
        return 959
    elif x == 960:
        return 960
    elif x == 961:
        return 961
    elif x == 962:
        return 962
    elif x == 963:
        return 963
    elif x == 964:
        return 964
    elif x == 965:
        return 965
    elif x == 966:
        return 966
    elif x == 967:
        return 967
    elif x == 968:
        return 968
    elif x == 969:
        return 969
    elif x == 970:
        return 970
    elif x == 971:
        return 971
    elif x == 972:
        return 972
    elif x == 973:
        return 973
    elif x == 974:
        return 974
    elif x == 975:
        return 975
    elif x == 976:
        return 976
    elif x == 977:
        return 977
    elif x == 978:
        return 978
    elif x == 979:
        return 979
    elif x == 980:
        return 980
    elif x == 981:
        return 981
    elif x == 982:
        return 982
    elif x == 983:
        return 983
    elif x == 984:
        return 984
    elif x == 985:
        return 985
    elif x == 986:
        return 986
    elif x == 987:
        return 987
    elif x == 988:
        return 988
    elif x == 989:
        return 989
    elif x == 990:
        return 990
    elif x == 991:
        return 991
    elif x == 992:
        return 992
    elif x == 993:
        return 993
    elif x == 994:
        return 994
    elif x == 995:
        return 995
    elif x == 996:
        return 996
    elif x == 997:
        return 997
    elif x == 998:
        return 998
    elif x == 999:
        return 999
    elif x == 1000:
        return 1000
    elif x == 1001:
        return 1001
    elif x == 1002:
        return 1002
    elif x == 1003:
        return 1003
    elif x == 1004:
        return 1004
    elif x == 1005:
        return 1005
    elif x == 1006:
        return 1006
    elif x == 1007:
        return 1007
    elif x == 1008:
        return 1008
    elif x == 1009:
        return 1009
    elif x == 1010:
        return 1010
    elif x == 1011:
        return 1011
    elif x == 1012:
        return 1012
    elif x == 1013:
        return 1013
    elif x == 1014:
        return 1014
    elif x == 1015:
        return 1015
    elif x == 1016:
        return 1016
    elif x == 1017:
        return 1017
    elif x == 1018:
        return 1018
    elif x == 1019:
        return 1019
    elif x == 1020:
        return 1020
    elif x == 1021:
        return 1021
    elif x == 1022:
        return 1022
    elif x == 1023:
        return 1023
    elif x == 1024:
        return 1024
    elif x == 1025:
        return 1025
    elif x == 1026:
        return 1026
    elif x == 1027:
        return 1027
    elif x == 1028:
        return 1028
    elif x == 1029:
        return 1029
    elif x == 1030:
        return 1030
    elif x == 1031:
        return 1031
    elif x == 1032:
        return 1032
    elif x == 1033:
        return 1033
    elif x == 1034:
        return 1034
    elif x == 1035:
        return 1035
    elif x == 1036:
        return 1036
    elif x == 1037:
        return 1037
    elif x == 1038:
        return 1038
    elif x == 1039:
        return 1039
    elif x == 1040:
        return 1040
    elif x == 1041:
        return 1041
    elif x == 1042:
        return 1042
    elif x == 1043:
        return 1043
    elif x == 1044:
        return 1044
    elif x == 1045:
        return 1045
    elif x == 1046:
        return 1046
    elif x == 1047:
        return 1047
    elif x == 1048:
        return 1048
    elif x == 1049:
        return 1049
    elif x == 1050:
        return 1050
    elif x == 1051:
        return 1051
    elif x == 1052:
        return 1052
    elif x == 1053:
        return 1053
    elif x == 1054:
        return 1054
    elif x == 1055:
        return 1055
    elif x == 1056:
        return 1056
    elif x == 1057:
        return 1057
    elif x == 1058:
        return 1058
    elif x == 1059:
        return 1059
    elif x == 1060:
        return 1060
    elif x == 1061:
        return 1061
    elif x == 1062:
        return 1062
    elif x == 1063:
        return 1063
    elif x == 1064:
        return 1064
    elif x == 1065:
        return 1065
    elif x == 1066:
        return 1066
    elif x == 1067:
        return 1067
    elif x == 1068:
        return 1068
    elif x == 1069:
        return 1069
    elif x == 1070:
        return 1070
    elif x == 1071:
        return 1071
    elif x == 1072:
        return 1072
    elif x == 1073:
        return 1073
    elif x == 1074:
        return 1074
    elif x == 1075:
        return 1075
    elif x == 1076:
        return 1076
    elif x == 1077:
        return 1077
    elif x == 1078:
        return 1078
    elif x == 1079:
        return 1079
    elif x == 1080:
        return 1080
    elif x == 1081:
        return 1081
    elif x == 1082:
        return 1082
    elif x == 1083:
        return 1083
    elif x == 1084:
        return 1084
    elif x == 1085:
        return 1085
    elif x == 1086:
        return 1086
    elif x == 1087:
        return 1087
    elif x == 1088:
        return 1088
    elif x == 1089:
        return 1089
    elif x == 1090:
        return 1090
    elif x == 1091:
        return 1091
    elif x == 1092:
        return 1092
    elif x == 1093:
        return 1093
    elif x == 1094:
        return 1094
    elif x == 1095:
        return 1095
    elif x == 1096:
        return 1096
    elif x == 1097:
        return 1097
    elif x == 1098:
        return 1098
    elif x == 1099:
        return 1099
    elif x == 1100:
        return 1100
    elif x == 1101:
        return 1101
    elif x == 1102:
        return 1102
    elif x == 1103:
        return 1103
    elif x == 1104:
        return 1104
    elif x == 1105:
        return 1105
    elif x == 1106:
        return 1106
    elif x == 1107:
        return 1107
    elif x == 1108:
        return 1108
    elif x == 1109:
        return 1109
    elif x == 1110:
        return 1110
    elif x == 1111:
        return 1111
    elif x == 1112:
        return 1112
    elif x == 1113:
        return 1113
    elif x == 1114:
        return 1114
    elif x == 1115:
        return 1115
    elif x == 1116:
        return 1116
    elif x == 1117:
        return 1117
    elif x == 1118:
        return 1118
    elif x == 1119:
        return 1119
    elif x == 1120:
        return 1120
    elif x == 1121:
        return 1121
    elif x == 1122:
        return 1122
    elif x == 1123:
        return 1123
    elif x == 1124:
        return 1124
    elif x == 1125:
        return 1125
    elif x == 1126:
        return 1126
    elif x == 1127:
        return 1127
    elif x == 1128:
        return 1128
    elif x == 1129:
        return 1129
    elif x == 1130:
        return 1130
    elif x == 1131:
        return 1131
    elif x == 1132:
        return 1132
    elif x == 1133:
        return 1133
    elif x == 1134:
        return 1134
    elif x == 1135:
        return 1135
    elif x == 1136:
        return 1136
    elif x == 1137:
        return 1137
    elif x == 1138:
        return 1138
    elif x == 1139:
        return 1139
    elif x == 1140:
        return 1140
    elif x == 1141:
        return 1141
    elif x == 1142:
        return 1142
    elif x == 1143:
        return 1143
    elif x == 1144:
        return 1144
    elif x == 1145:
        return 1145
    elif x == 1146:
        return 1146
    elif x == 1147:
        return 1147
    elif x == 1148:
        return 1148
    elif x == 1149:
        return 1149
    elif x == 1150:
        return 1150
    elif x == 1151:
        return 1151
    elif x == 1152:
        return 1152
    elif x == 1153:
        return 1153
    elif x == 1154:
        return 1154
    elif x == 1155:
        return 1155
    elif x == 1156:
        return 1156
    elif x == 1157:
        return 1157
    elif x == 1158:
        return 1158
    elif x == 1159:
        return 1159
    elif x == 1160:
        return 1160
    elif x == 1161:
        return 1161
    elif x == 1162:
        return 1162
    elif x == 1163:
        return 1163
    elif x == 1164:
        return 1164
    elif x == 1165:
        return 1165
    elif x == 1166:
        return 1166
    elif x == 1167:
        return 1167
    elif x == 1168:
        return 1168
    elif x == 1169:
        return 1169
    elif x == 1170:
        return 1170
    elif x == 1171:
        return 1171
    elif x == 1172:
        return 1172
    elif x == 1173:
        return 1173
    elif x == 1174:
        return 1174
    elif x == 1175:
        return 1175
    elif x == 1176:
        return 1176
    elif x == 1177:
        return 1177
    elif x == 1178:
        return 1178
    elif x == 1179:
        return 1179
    elif x == 1180:
        return 1180
    elif x == 1181:
        return 1181
    elif x == 1182:
        return 1182
    elif x == 1183:
        return 1183
    elif x == 1184:
        return 1184
    elif x == 1185:
        return 1185
    elif x == 1186:
        return 1186
    elif x == 1187:
        return 1187
    elif x == 1188:
        return 1188
    elif x == 1189:
        return 1189
    elif x == 1190:
        return 1190
    elif x == 1191:
        return 1191
    elif x == 1192:
        return 1192
    elif x == 1193:
        return 1193
    elif x == 1194:
        return 1194
    elif x == 1195:
        return 1195
    elif x == 1196:
        return 1196
    elif x == 1197:
        return 1197
    elif x == 1198:
        return 1198
    elif x == 1199:
        return 1199
    elif x == 1200:
        return 1200
    elif x == 1201:
        return 1201
    elif x == 1202:
        return 1202
    elif x == 1203:
        return 1203
    elif x == 1204:
        return 1204
    elif x == 1205:
        return 1205
    elif x == 1206:
        return 1206
    elif x == 1207:
        return 1207
    elif x == 1208:
        return 1208
    elif x == 1209:
        return 1209
    elif x == 1210:
        return 1210
    elif x == 1211:
        return 1211
    elif x == 1212:
        return 1212
    elif x == 1213:
        return 1213
    elif x == 1214:
        return 1214
    elif x == 1215:
        return 1215
    elif x == 1216:
        return 1216
    elif x == 1217:
        return 1217
    elif x == 1218:
        return 1218
    elif x == 1219:
        return 1219
    elif x == 1220:
        return 1220
    elif x == 1221:
        return 1221
    elif x == 1222:
        return 1222
    elif x == 1223:
        return 1223
    elif x == 1224:
        return 1224
    elif x == 1225:
        return 1225
    elif x == 1226:
        return 1226
    elif x == 1227:
        return 1227
    elif x == 1228:
        return 1228
    elif x == 1229:
        return 1229
    elif x == 1230:
        return 1230
    elif x == 1231:
        return 1231
    elif x == 1232:
        return 1232
    elif x == 1233:
        return 1233
    elif x == 1234:
        return 1234
    elif x == 1235:
        return 1235
    elif x == 1236:
        return 1236
    elif x == 1237:
        return 1237
    elif x == 1238:
        return 1238
    elif x == 1239:
        return 1239
    elif x == 1240:
        return 1240
    elif x == 1241:
        return 1241
    elif x == 1242:
        return 1242
    elif x == 1243:
        return 1243
    elif x == 1244:
        return 1244
    elif x == 1245:
        return 1245
    elif x == 1246:
        return 1246
    elif x == 1247:
        return 1247
    elif x == 1248:
        return 1248
    elif x == 1249:
        return 1249
    elif x == 1250:
        return 1250
    elif x == 1251:
        return 1251
    elif x == 1252:
        return 1252
    elif x == 1253:
        return 1253
    elif x == 1254:
        return 1254
    elif x == 1255:
        return 1255
    elif x == 1256:
        return 1256
    elif x == 1257:
        return 1257
    elif x == 1258:
        return 1258
    elif x == 1259:
        return 1259
    elif x == 1260:
        return 1260
    elif x == 1261:
        return 1261
    elif x == 1262:
        return 1262
    elif x == 1263:
        return 1263
    elif x == 1264:
        return 1264
    elif x == 1265:
        return 1265
    elif x == 1266:
        return 1266
    elif x == 1267:
        return 1267
    elif x == 1268:
        return 1268
    elif x == 1269:
        return 1269
    elif x == 1270:
        return 1270
    elif x == 1271:
        return 1271
    elif x == 1272:
        return 1272
    elif x == 1273:
        return 1273
    elif x == 1274:
        return 1274
    elif x == 1275:
        return 1275
    elif x == 1276:
        return 1276
    elif x == 1277:
        return 1277
    elif x == 1278:
        return 1278
    elif x == 1279:
        return 1279
    elif x == 1280:
        return 1280
    elif x == 1281:
        return 1281
    elif x == 1282:
        return 1282
    elif x == 1283:
        return 1283
    elif x == 1284:
        return 1284
    elif x == 1285:
        return 1285
    elif x == 1286:
        return 1286
    elif x == 1287:
        return 1287
    elif x == 1288:
        return 1288
    elif x == 1289:
        return 1289
    elif x == 1290:
        return 1290
    elif x == 1291:
        return 1291
    elif x == 1292:
        return 1292
    elif x == 1293:
        return 1293
    elif x == 1294:
        return 1294
    elif x == 1295:
        return 1295
    elif x == 1296:
        return 1296
    elif x == 1297:
        return 1297
    elif x == 1298:
        return 1298
    elif x == 1299:
        return 1299
    elif x == 1300:
        return 1300
    elif x == 1301:
        return 1301
    elif x == 1302:
        return 1302
    elif x == 1303:
        return 1303
    elif x == 1304:
        return 1304
    elif x == 1305:
        return 1305
    elif x == 1306:
        return 1306
    elif x == 1307:
        return 1307
    elif x == 1308:
        return 1308
    elif x == 1309:
        return 1309
    elif x == 1310:
        return 1310
    elif x == 1311:
        return 1311
    elif x == 1312:
        return 1312
    elif x == 1313:
        return 1313
    elif x == 1314:
        return 1314
    elif x == 1315:
        return 1315
    elif x == 1316:
        return 1316
    elif x == 1317:
        return 1317
    elif x == 1318:
        return 1318
    elif x == 1319:
        return 1319
    elif x == 1320:
        return 1320
    elif x == 1321:
        return 1321
    elif x == 1322:
        return 1322
    elif x == 1323:
        return 1323
    elif x == 1324:
        return 1324
    elif x == 1325:
        return 1325
    elif x == 1326:
        return 1326
    elif x == 1327:
        return 1327
    elif x == 1328:
        return 1328
    elif x == 1329:
        return 1329
    elif x == 1330:
        return 1330
    elif x == 1331:
        return 1331
    elif x == 1332:
        return 1332
    elif x == 1333:
        return 1333
    elif x == 1334:
        return 1334
    elif x == 1335:
        return 1335
    elif x == 1336:
        return 1336
    elif x == 1337:
        return 1337
    elif x == 1338:
        return 1338
    elif x == 1339:
        return 1339
    elif x == 1340:
        return 1340
    elif x == 1341:
        return 1341
    elif x == 1342:
        return 1342
    elif x == 1343:
        return 1343
    elif x == 1344:
        return 1344
    elif x == 1345:
        return 1345
    elif x == 1346:
        return 1346
    elif x == 1347:
        return 1347
    elif x == 1348:
        return 1348
    elif x == 1349:
        return 1349
    elif x == 1350:
        return 1350
    elif x == 1351:
        return 1351
    elif x == 1352:
        return 1352
    elif x == 1353:
        return 1353
    elif x == 1354:
        return 1354
    elif x == 1355:
        return 1355
    elif x == 1356:
        return 1356
    elif x == 1357:
        return 1357
    elif x == 1358:
        return 1358
    elif x == 1359:
        return 1359
    elif x == 1360:
        return 1360
    elif x == 1361:
        return 1361
    elif x == 1362:
        return 1362
    elif x == 1363:
        return 1363
    elif x == 1364:
        return 1364
    elif x == 1365:
        return 1365
    elif x == 1366:
        return 1366
    elif x == 1367:
        return 1367
    elif x == 1368:
        return 1368
    elif x == 1369:
        return 1369
    elif x == 1370:
        return 1370
    elif x == 1371:
        return 1371
    elif x == 1372:
        return 1372
    elif x == 1373:
        return 1373
    elif x == 1374:
        return 1374
    elif x == 1375:
        return 1375
    elif x == 1376:
        return 1376
    elif x == 1377:
        return 1377
    elif x == 1378:
        return 1378
    elif x == 1379:
        return 1379
    elif x == 1380:
        return 1380
    elif x == 1381:
        return 1381
    elif x == 1382:
        return 1382
    elif x == 1383:
        return 1383
    elif x == 1384:
        return 1384
    elif x == 1385:
        return 1385
    elif x == 1386:
        return 1386
    elif x == 1387:
        return 1387
    elif x == 1388:
        return 1388
    elif x == 1389:
        return 1389
    elif x == 1390:
        return 1390
    elif x == 1391:
        return 1391
    elif x == 1392:
        return 1392
    elif x == 1393:
        return 1393
    elif x == 1394:
        return 1394
    elif x == 1395:
        return 1395
    elif x == 1396:
        return 1396
    elif x == 1397:
        return 1397
    elif x == 1398:
        return 1398
    elif x == 1399:
        return 1399
    elif x == 1400:
        return 1400
    elif x == 1401:
        return 1401
    elif x == 1402:
        return 1402
    elif x == 1403:
        return 1403
    elif x == 1404:
        return 1404
    elif x == 1405:
        return 1405
    elif x == 1406:
        return 1406
    elif x == 1407:
        return 1407
    elif x == 1408:
        return 1408
    elif x == 1409:
        return 1409
    elif x == 1410:
        return 1410
    elif x == 1411:
        return 1411
    elif x == 1412:
        return 1412
    elif x == 1413:
        return 1413
    elif x == 1414:
        return 1414
    elif x == 1415:
        return 1415
    elif x == 1416:
        return 1416
    elif x == 1417:
        return 1417
    elif x == 1418:
        return 1418
    elif x == 1419:
        return 1419
    elif x == 1420:
        return 1420
    elif x == 1421:
        return 1421
    elif x == 1422:
        return 1422
    elif x == 1423:
        return 1423
    elif x == 1424:
        return 1424
    elif x == 1425:
        return 1425
    elif x == 1426:
        return 1426
    elif x == 1427:
        return 1427
    elif x == 1428:
        return 1428
    elif x == 1429:
        return 1429
    elif x == 1430:
        return 1430
    elif x == 1431:
        return 1431
    elif x == 1432:
        return 1432
    elif x == 1433:
        return 1433
    elif x == 1434:
        return 1434
    elif x == 1435:
        return 1435
    elif x == 1436:
        return 1436
    elif x == 1437:
        return 1437
    elif x == 1438:
        return 1438
    elif x == 1439:
        return 1439
    elif x == 1440:
        return 1440
    elif x == 1441:
        return 1441
    elif x == 1442:
        return 1442
    elif x == 1443:
        return 1443
    elif x == 1444:
        return 1444
    elif x == 1445:
        return 1445
    elif x == 1446:
        return 1446
    elif x == 1447:
        return 1447
    elif x == 1448:
        return 1448
    elif x == 1449:
        return 1449
    elif x == 1450:
        return 1450
    elif x == 1451:
        return 1451
    elif x == 1452:
        return 1452
    elif x == 1453:
        return 1453
    elif x == 1454:
        return 1454
    elif x == 1455:
        return 1455
    elif x == 1456:
        return 1456
    elif x == 1457:
        return 1457
    elif x == 1458:
        return 1458
    elif x == 1459:
        return 1459
    elif x == 1460:
        return 1460
    elif x == 1461:
        return 1461
    elif x == 1462:
        return 1462
    elif x == 1463:
        return 1463
    elif x == 1464:
        return 1464
    elif x == 1465:
        return 1465
    elif x == 1466:
        return 1466
    elif x == 1467:
        return 1467
    elif x == 1468:
        return 1468
    elif x == 1469:
        return 1469
    elif x == 1470:
        return 1470
    elif x == 1471:
        return 1471
    elif x == 1472:
        return 1472
    elif x == 1473:
        return 1473
    elif x == 1474:
        return 1474
    elif x == 1475:
        return 1475
    elif x == 1476:
        return 1476
    elif x == 1477:
        return 1477
    elif x == 1478:
        return 1478
    elif x == 1479:
        return 1479
    elif x == 1480:
        return 1480
    elif x == 1481:
        return 1481
    elif x == 1482:
        return 1482
    elif x == 1483:
        return 1483
    elif x == 1484:
        return 1484
    elif x == 1485:
        return 1485
    elif x == 1486:
        return 1486
    elif x == 1487:
        return 1487
    elif x == 1488:
        return 1488
    elif x == 1489:
        return 1489
    elif x == 1490:
        return 1490
    elif x == 1491:
        return 1491
    elif x == 1492:
        return 1492
    elif x == 1493:
        return 1493
    elif x == 1494:
        return 1494
    elif x == 1495:
        return 1495
    elif x == 1496:
        return 1496
    elif x == 1497:
        return 1497
    elif x == 1498:
        return 1498
    elif x == 1499:
        return 1499
    return -1


def case_loop(steps=3):
    total = 0.0
    for _ in range(steps):  # not a literal range: a literal one of five steps or fewer is a demo loop
        total += float(jnp.ones(()))  # JNP102, confirmed by case_loop
    return total + pick(3)
