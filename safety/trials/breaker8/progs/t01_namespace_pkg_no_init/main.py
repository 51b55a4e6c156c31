from app.train import run

run()
